import type { Sets } from "../bindings";
import { t } from "../i18n";

/** What an answer sets when a server is installed from the registry, in the window's language; the entry's names as they are. */
export function setsText(sets: Sets): string {
  switch (sets.kind) {
    case "argument":
      return sets.name === null ? t("registry.sets.argumentValue") : t("registry.sets.argument", { name: sets.name });
    case "environment":
      return t("registry.sets.environment", { name: sets.name });
    case "header":
      return t("registry.sets.header", { name: sets.name });
    case "address":
      return t("registry.sets.address", { name: sets.name });
    case "variableOf":
      return t("registry.sets.variableOf", { name: sets.name, of: setsText(sets.of) });
  }
}

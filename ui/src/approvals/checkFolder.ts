import { commands, type Unusable } from "../bindings";
import { t } from "../i18n";

/** Why a path cannot be shared as a folder, in the window's language; the system's words as they came. */
export function unusableText(unusable: Unusable): string {
  switch (unusable.kind) {
    case "notFound":
      return t("requests.folders.notFound");
    case "notAFolder":
      return t("requests.folders.notAFolder");
    case "said":
      return unusable.text;
  }
}

/** Asks the host whether `path` could be shared, as sharing it would check it: why not, or null. */
export async function checkFolder(path: string): Promise<string | null> {
  const unusable = await commands.checkFolder(path);
  return unusable && unusableText(unusable);
}

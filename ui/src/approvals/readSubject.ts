import type { Read } from "../bindings";
import { t } from "../i18n";

/** What is read, in a line of text (the window's language, at the time it is called). */
export function readSubject(read: Read): string {
  switch (read.kind) {
    case "resource":
    case "subscription":
      return read.uri;
    case "prompt":
      return t("requests.subject.prompt", { name: read.name });
    case "completion":
      return t("requests.subject.completion", { argument: read.argument, of: read.of });
    case "skill":
      return t("requests.subject.skill", { name: read.name });
  }
}

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

/** A read as a call names it ("read demo://readme"), in the window's language. */
export function readNamed(read: Read): string {
  switch (read.kind) {
    case "resource":
      return t("requests.named.resource", { uri: read.uri });
    case "subscription":
      return t("requests.named.subscription", { uri: read.uri });
    case "prompt":
      return t("requests.named.prompt", { name: read.name });
    case "completion":
      return t("requests.named.completion", { argument: read.argument, of: read.of });
    case "skill":
      return t("requests.named.skill", { name: read.name });
  }
}

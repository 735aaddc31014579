import type { ImportError, ImportWarning, Skipped } from "../bindings";
import { t } from "../i18n";

// Names and values are quoted as the host quotes them (a Rust string's debug form: JSON's).
const quoted = (text: string) => JSON.stringify(text);

/** What an import could not carry over exactly, in the window's language; the file's words as they are. */
export function importWarningText(warning: ImportWarning): string {
  switch (warning.kind) {
    case "notTrusted":
      return t("serverForm.import.warning.notTrusted", { server: quoted(warning.server) });
    case "unusedSetting":
      return t("serverForm.import.warning.unusedSetting", { server: quoted(warning.server), field: warning.field, value: warning.value });
    case "inputKeptAsWritten":
      return t("serverForm.import.warning.inputKeptAsWritten", { server: quoted(warning.server) });
    case "mixedValue":
      return t("serverForm.import.warning.mixedValue", {
        server: quoted(warning.server),
        place: warning.place,
        key: quoted(warning.key),
        text: quoted(warning.text),
      });
  }
}

/** Why a server of the file was not imported, in the window's language. */
export function skippedText(reason: Skipped): string {
  switch (reason.kind) {
    case "notSelected":
      return t("serverForm.summary.notSelected");
    case "taken":
      return t("serverForm.summary.taken", { name: quoted(reason.name) });
    case "claimedTwice":
      return t("serverForm.summary.claimedTwice", { name: quoted(reason.name) });
  }
}

/** Why another host's configuration cannot be imported, in the window's language; the parser's words and the file's names as they came. */
export function importErrorText(error: ImportError): string {
  switch (error.kind) {
    case "notJson":
      return t("errors.import.notJson", { detail: error.of });
    case "noServers":
      return t("errors.import.noServers", { key: error.of });
    case "unknownFormat":
      return t("errors.import.unknownFormat");
    case "server":
      return t("errors.import.server", { name: quoted(error.of.name), reason: error.of.reason });
    case "unanswered":
      return t("errors.import.unanswered", { server: quoted(error.of.server), input: quoted(error.of.input) });
  }
}

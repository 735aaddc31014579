import type { EditError, SetupError } from "../bindings";
import { t } from "../i18n";

/** Why an app's configuration was not changed for an agent, in the window's language; paths, the parser's and the system's words as they came, the agent's name quoted as the host quotes it. */
export function setupErrorText(error: SetupError): string {
  switch (error.kind) {
    case "unreadable":
      return t("errors.agentSetup.unreadable", { path: error.of.path, error: editErrorText(error.of.error) });
    case "alreadySetUp":
      return t("errors.agentSetup.alreadySetUp", { app: error.of.app, agent: JSON.stringify(error.of.agent), path: error.of.path });
    case "changed":
      return t("errors.agentSetup.changed", { path: error.of.path });
    case "read":
      return t("errors.agentSetup.read", { path: error.of.path, error: error.of.error });
    case "write":
      return t("errors.agentSetup.write", { path: error.of.path, error: error.of.error });
    case "noHome":
      return t("errors.agentSetup.noHome");
    case "interrupted":
      return t("errors.agentSetup.interrupted", { error: error.of });
  }
}

/** Why the file cannot be edited: where it does not read (line and column as the parser counts them), or what is not an object. */
function editErrorText(error: EditError): string {
  switch (error.kind) {
    case "malformed":
      return t("errors.agentSetup.malformed", { message: error.of.message, line: String(error.of.line), column: String(error.of.column) });
    case "notAnObject":
      return t("errors.agentSetup.notAnObject");
    case "serversNotAnObject":
      return t("errors.agentSetup.serversNotAnObject", { key: JSON.stringify(error.of) });
  }
}

import type { CallFailure } from "../bindings";
import { t } from "../i18n";
import { requestFailureText } from "../servers/requestFailure";

/** Why a model's tool call failed, in the window's language; another part's words as they came. */
export function failureText(failure: CallFailure): string {
  switch (failure.kind) {
    case "stopped":
      return t("chat.failure.stopped");
    case "notRunning":
      return t("chat.failure.notRunning", { server: failure.server });
    case "noTool":
      // Quoted as the host quotes it (a Rust string's debug form: JSON's, for a name).
      return t("chat.failure.noTool", { name: JSON.stringify(failure.name) });
    case "notAnObject":
      return t("chat.failure.notAnObject", { arguments: failure.arguments });
    case "noSkill":
      return t("chat.failure.noSkill", { server: failure.server, name: JSON.stringify(failure.name) });
    case "request":
      return requestFailureText(failure.failure);
    case "said":
      return failure.text;
  }
}

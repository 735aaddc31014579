import type { EraReason_Serialize as EraReason, NoSandbox, Probed, Reason, ServerState_Serialize as ServerState } from "../bindings";
import { t } from "../i18n";
import { requestFailureText } from "./requestFailure";
import { signInFailureText } from "./signInFailure";

/** Why a server stopped, restarts or waits, in the window's language; the system's and
 *  the server's own words in it as they came. */
export function reasonText(reason: Reason): string {
  switch (reason.kind) {
    case "exited":
      return reason.lastLine === null
        ? t("servers.reason.exited", { exit: reason.exit })
        : t("servers.reason.exitedWithLine", { exit: reason.exit, line: reason.lastLine });
    case "notStarted":
      // Quoted as the host quotes it (a Rust string's debug form: JSON's, for a path).
      return t("servers.reason.notStarted", { program: JSON.stringify(reason.program), detail: reason.detail });
    case "notOnPath":
      return t("servers.reason.notOnPath", { program: reason.program });
    case "bundledMissing":
      return t("servers.reason.bundledMissing", { program: reason.program, folder: reason.folder });
    case "bundledWritable":
      return t("servers.reason.bundledWritable", { program: reason.program, folder: reason.folder });
    case "couldNotMake":
      return t("servers.reason.couldNotMake", { folder: reason.folder, detail: reason.detail });
    case "noSignInWaiting":
      return t("servers.reason.noSignInWaiting");
    case "serverStopped":
      return t("servers.reason.serverStopped");
    case "hostStopped":
      return t("servers.reason.hostStopped");
    case "unreachable":
      return t("servers.reason.unreachable", { url: reason.url, detail: reason.detail });
    case "missingSecret":
      return t("servers.reason.missingSecret", { secret: JSON.stringify(reason.secret) });
    case "asksForAuthorization":
      return t(reason.again ? "servers.reason.asksAgain" : "servers.reason.asks", { server: reason.server });
    case "signIn":
      return signInFailureText(reason.failure);
    case "noSandbox":
      return noSandboxText(reason.why);
    case "request":
      return requestFailureText(reason.failure);
    case "said":
      return reason.text;
  }
}

/** Why no sandbox can be built here, and how to fix it; what bubblewrap or the helper said as it came. */
function noSandboxText(why: NoSandbox): string {
  switch (why.kind) {
    case "bubblewrapMissing":
      return t("servers.reason.bubblewrapMissing");
    case "landlockCannot":
      return t("servers.reason.landlockCannot", { why: why.why });
    case "noneCanRun":
      return t("servers.reason.noneCanRun", {
        bubblewrap: why.bubblewrap ?? t("servers.reason.bubblewrapNotInstalled"),
        landlock: why.landlock,
      });
  }
}

/** Why a server restarts, failed or waits for authorization, with the restarts it was given. */
export function whyText(state: ServerState): string | null {
  switch (state.state) {
    case "restarting":
      return reasonText(state.reason);
    case "failed":
      return state.gaveUpAfter === null
        ? reasonText(state.reason)
        : t("servers.reason.gaveUp", { reason: reasonText(state.reason), count: state.gaveUpAfter });
    case "auth_required":
      return reasonText(state.detail);
    default:
      return null;
  }
}

/** Why a server's era and revision were chosen, in the window's language; the server's words as they came. */
export function eraText(reason: EraReason): string {
  const probed = reason.probed.map(probedText).reduce<string | null>((first, next) => (first === null ? next : t("servers.era.then", { first, next })), null);
  if (reason.initialized === null) return probed ?? "";
  return t("servers.era.initialized", { probed: probed ?? t("servers.era.settings"), version: reason.initialized });
}

/** What `server/discover` met. */
function probedText(probed: Probed): string {
  switch (probed.kind) {
    case "answered":
      return t("servers.era.answered", { version: probed.version });
    case "speaks":
      return t("servers.era.speaks", { supported: probed.supported });
    case "refused":
      // A code as the server sent it, not a number to format.
      return t("servers.era.refused", { code: String(probed.code), message: probed.message });
    case "noAnswer":
      return t(probed.afterPing ? "servers.era.noAnswerAfterPing" : "servers.era.noAnswer", { seconds: probed.seconds });
    case "httpStatus":
      return t("servers.era.httpStatus", { status: String(probed.status) });
    case "failed":
      return t("servers.era.failed", { detail: probed.detail });
    case "unreadable":
      return t("servers.era.unreadable");
    case "notADiscovery":
      return t("servers.era.notADiscovery", { detail: probed.detail });
    case "noStateless":
      return t("servers.era.noStateless", { supported: probed.supported });
  }
}

import type { GatewayProblem } from "../bindings";
import { t } from "../i18n";

/** Why agents cannot reach Switchboard over HTTP, in the window's language; the system's words as they came. */
export function gatewayProblemText(problem: GatewayProblem): string {
  switch (problem.kind) {
    case "cannotListen":
      return t("agents.gateway.cannotListen", { error: problem.error });
    case "portTaken":
      return t("agents.gateway.portTaken", {
        error: problem.error,
        // A port as the settings write it, not a number to format.
        port: String(problem.port),
        renewed: problem.renewed,
        notRenewed: problem.notRenewed.length > 0 ? t("agents.gateway.notRenewed", { agents: problem.notRenewed.join("; ") }) : "",
      });
  }
}

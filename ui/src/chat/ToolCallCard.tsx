import type { CallToolResult } from "../mcp/schema";
import { JsonView } from "../content/JsonView";
import { ToolResultView } from "../content/ToolResultView";
import type { CallState } from "./live";
import type { Conversation } from "../views/bridge";
import type { ToolView } from "../views/viewOf";
import { ViewFrame } from "../views/ViewFrame";
import { format, t as translate, useT } from "../i18n";
import { decidedByText } from "../activity/decisions";
import { failureText } from "./failures";

export interface ToolCallCardProps {
  /** The name the model called. */
  name: string;
  server: string | null;
  tool: string | null;
  /** The arguments the model gave. */
  arguments: unknown;
  state: CallState | null;
  /** Stops the conversation, which cancels the call. */
  onStop?: (() => void) | undefined;
  /** The tool's view (MCP Apps), shown with the call's arguments from the moment it is asked about. */
  view?: ToolView | null | undefined;
  /** The conversation the view lives in. */
  conversation?: Conversation | undefined;
}

/** One tool call of the model: waiting for approval, running, its result, or why there is none. */
export function ToolCallCard({ name, server, tool, arguments: args, state, onStop, view, conversation }: ToolCallCardProps) {
  const t = useT();
  const label = server && tool ? t("chat.call.of", { tool, server }) : name;
  const status = statusOf(state);
  return (
    <section
      className={`tool-card tool-card-${state?.kind ?? "unknown"}`}
      aria-label={server && tool ? t("chat.call.label", { tool, server }) : t("chat.call.labelNamed", { name })}
    >
      <header className="tool-card-head">
        <code>{label}</code>
        <span className="tool-card-status" role="status">
          {status}
        </span>
      </header>
      <details className="content-disclosure" open={state?.kind === "awaiting"}>
        <summary>{t("chat.call.arguments")}</summary>
        <JsonView value={ranWith(state) ?? args} />
      </details>
      {state?.kind === "running" && (
        <div className="tool-card-progress">
          {state.progress !== null &&
            (state.total ? <progress value={state.progress} max={state.total} /> : <span>{format.number(state.progress)}</span>)}
          {state.message && <span>{state.message}</span>}
          {onStop && (
            <button type="button" className="button" onClick={onStop}>
              {t("chat.call.cancel")}
            </button>
          )}
        </div>
      )}
      {state?.kind === "result" && <ToolResultView result={state.result as CallToolResult} />}
      {state?.kind === "failed" && <p className="error">{failureText(state.error)}</p>}
      {state?.kind === "not_made" && <p className="muted">{t("chat.call.modelWasTold", { told: state.reason })}</p>}
      {view && server && (state?.kind === "awaiting" || state?.kind === "running" || state?.kind === "result" || state?.kind === "failed") && (
        <ViewFrame
          server={server}
          uri={view.uri}
          tool={view.tool}
          arguments={objectOf(ranWith(state) ?? args)}
          result={state.kind === "result" ? (state.result as CallToolResult) : null}
          cancelled={state.kind === "failed" ? failureText(state.error) : null}
          conversation={conversation}
        />
      )}
    </section>
  );
}

/** Where the call stands; who decided it in the host's words, but the person (`user`) in the window's. */
function statusOf(state: CallState | null): string {
  switch (state?.kind) {
    case undefined:
      return translate("chat.call.noResult");
    case "awaiting":
      return translate("chat.call.awaiting");
    case "running":
      return state.decidedBy.kind === "person" ? translate("chat.call.runningByYou") : translate("chat.call.running", { by: decidedByText(state.decidedBy) });
    case "result":
      return state.isError ? translate("chat.call.failed") : translate("chat.call.done");
    case "denied":
      return state.decidedBy.kind === "person" ? translate("chat.call.deniedByYou") : translate("chat.call.denied", { by: decidedByText(state.decidedBy) });
    case "failed":
      return translate("chat.call.failed");
    case "not_made":
      return translate("chat.call.notRun");
  }
}

/** The arguments the call ran with, once allowed (the person may have edited them). */
function ranWith(state: CallState | null | undefined): unknown {
  return state?.kind === "running" || state?.kind === "result" ? state.arguments : undefined;
}

const objectOf = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

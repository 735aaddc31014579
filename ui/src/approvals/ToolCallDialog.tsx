import { useMemo, useState, type ReactNode } from "react";
import type { ToolAnnotations } from "../mcp/schema";
import { Modal } from "../dialogs/Modal";
import { tx, useT } from "../i18n";
import { JsonEditor } from "../forms/JsonEditor";
import { parseJsonObject, prettyJson } from "../forms/rawJson";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { ServerName } from "./ServerName";
import { ToolClaims } from "./ToolClaims";
import { TrustChange } from "./TrustChange";
import type { Changed, Origin, Remember } from "../bindings";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface ToolCallRequest extends PendingBase {
  tool: string;
  arguments: Record<string, unknown>;
  annotations?: ToolAnnotations | null;
  /** Set when an allowance the person gave no longer holds: what changed since. */
  changed?: Changed | null;
  /** Who asks: the person, or a model in one of their conversations. */
  askedBy?: Origin | null;
}

export interface ToolCallAnswer {
  allow: boolean;
  arguments: Record<string, unknown>;
  remember: Remember;
}

export interface ToolCallDialogProps {
  request: ToolCallRequest;
  onAnswer(answer: ToolCallAnswer): void;
}

type Scope = "always" | "session";

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** Who wants the call made, in a title: the server's name set apart, the tool as code. */
function titleOf(request: ToolCallRequest): ReactNode {
  const named = { server: <ServerName name={request.server} />, tool: request.tool, code };
  switch (request.askedBy?.by) {
    case "model":
      return tx("approvals.toolCall.title.model", { ...named, title: request.askedBy.title });
    case "agent":
      return tx("approvals.toolCall.title.agent", { ...named, agent: request.askedBy.name });
    case "app":
      return tx("approvals.toolCall.title.app", named);
    case "person":
      return tx("approvals.toolCall.title.person", named);
    default:
      return tx("approvals.toolCall.title.server", named);
  }
}

/** A tool call that waits for the person: the exact arguments (editable) and the server's claims. */
export function ToolCallDialog({ request, onAnswer }: ToolCallDialogProps) {
  const t = useT();
  const original = prettyJson(request.arguments);
  const [text, setText] = useState(original);
  const [scope, setScope] = useState<Scope>("always");
  const parsed = parseJsonObject(text);
  const editorId = `tool-call-${request.id}-arguments`;
  const guard = useActivationGuard(
    useMemo(
      () =>
        contentKey(
          request.id,
          request.server,
          request.tool,
          request.arguments,
          request.annotations,
          request.changed,
        ),
      [request],
    ),
  );

  const allow = (remember: Remember) => {
    if (parsed.ok) onAnswer({ allow: true, arguments: parsed.value, remember });
  };
  // A denial sends the arguments as they came: edits, maybe half-typed, do not matter then.
  const deny = () => onAnswer({ allow: false, arguments: request.arguments, remember: "once" });
  const always = scope === "always";

  return (
    <Modal
      className="modal-wide"
      title={titleOf(request)}
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="denied" />}
      onCancel={deny}
      onPrimary={guard.primary(parsed.ok ? () => allow("once") : undefined)}
      footer={
        <>
          <button type="button" className="button danger" onClick={deny}>
            {t("approvals.toolCall.deny")}
          </button>
          <span className="spacer" />
          {!parsed.ok && <span className="form-error">{t("approvals.toolCall.fixArguments")}</span>}
          <button
            type="button"
            className="button"
            {...guard.accepting(!parsed.ok)}
            onClick={() => allow(always ? "server_always" : "server_for_session")}
          >
            {always ? t("approvals.toolCall.serverAlways") : t("approvals.toolCall.serverSession")}
          </button>
          <button
            type="button"
            className="button"
            {...guard.accepting(!parsed.ok)}
            onClick={() => allow(always ? "tool_always" : "tool_for_session")}
          >
            {always ? t("approvals.toolCall.toolAlways") : t("approvals.toolCall.toolSession")}
          </button>
          <button type="button" className="button primary" {...guard.accepting(!parsed.ok)} onClick={() => allow("once")}>
            {t("approvals.toolCall.once")}
          </button>
        </>
      }
    >
      {request.askedBy?.by === "person" && (
        <p className="muted">{t("approvals.toolCall.ownCall")}</p>
      )}
      {request.changed && <TrustChange changed={request.changed} />}
      <div className="form-field">
        <JsonEditor
          id={editorId}
          label={t("approvals.toolCall.arguments")}
          text={text}
          onText={setText}
          error={parsed.ok ? undefined : parsed.error}
          rows={Math.min(14, Math.max(4, original.split("\n").length + 1))}
        />
        {text !== original && (
          <p className="edited-note">
            <span>{t("approvals.toolCall.edited")}</span>
            <button type="button" className="link-button" onClick={() => setText(original)}>
              {t("approvals.toolCall.undo")}
            </button>
          </p>
        )}
      </div>
      <ToolClaims server={request.server} annotations={request.annotations} />
      <fieldset className="remember-scope">
        <legend>{t("approvals.toolCall.remember")}</legend>
        <label>
          <input type="radio" name={`${editorId}-scope`} checked={always} onChange={() => setScope("always")} />
          {t("approvals.toolCall.always")}
        </label>
        <label>
          <input type="radio" name={`${editorId}-scope`} checked={!always} onChange={() => setScope("session")} />
          {t("approvals.toolCall.untilQuit")}
        </label>
      </fieldset>
    </Modal>
  );
}

import { useMemo, useState } from "react";
import type { ToolAnnotations } from "../mcp/schema";
import { Modal } from "../dialogs/Modal";
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

/** A tool call that waits for the person: the exact arguments (editable) and the server's claims. */
export function ToolCallDialog({ request, onAnswer }: ToolCallDialogProps) {
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
      title={
        request.askedBy?.by === "model" ? (
          <>
            A model in conversation “{request.askedBy.title}” wants to call{" "}
            <code>{request.tool}</code> of <ServerName name={request.server} />
          </>
        ) : request.askedBy?.by === "agent" ? (
          <>
            {request.askedBy.name} wants <ServerName name={request.server} /> to call <code>{request.tool}</code>
          </>
        ) : request.askedBy?.by === "app" ? (
          <>
            The app of <ServerName name={request.server} /> wants to call <code>{request.tool}</code>
          </>
        ) : request.askedBy?.by === "person" ? (
          <>
            Your own call of <code>{request.tool}</code> on <ServerName name={request.server} /> may destroy something
          </>
        ) : (
          <>
            <ServerName name={request.server} /> wants to call <code>{request.tool}</code>
          </>
        )
      }
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="denied" />}
      onCancel={deny}
      onPrimary={guard.primary(parsed.ok ? () => allow("once") : undefined)}
      footer={
        <>
          <button type="button" className="button danger" onClick={deny}>
            Deny
          </button>
          <span className="spacer" />
          {!parsed.ok && <span className="form-error">Fix the arguments to allow the call</span>}
          <button
            type="button"
            className="button"
            {...guard.accepting(!parsed.ok)}
            onClick={() => allow(always ? "server_always" : "server_for_session")}
          >
            {always ? "Always allow this server" : "Allow this server until quit"}
          </button>
          <button
            type="button"
            className="button"
            {...guard.accepting(!parsed.ok)}
            onClick={() => allow(always ? "tool_always" : "tool_for_session")}
          >
            {always ? "Always allow this tool" : "Allow this tool until quit"}
          </button>
          <button type="button" className="button primary" {...guard.accepting(!parsed.ok)} onClick={() => allow("once")}>
            Allow once
          </button>
        </>
      }
    >
      {request.askedBy?.by === "person" && (
        <p className="muted">
          You called it yourself: it asks first because the tool does not claim to only read or to destroy nothing.
          These questions can be turned off on the Trust page.
        </p>
      )}
      {request.changed && <TrustChange changed={request.changed} />}
      <div className="form-field">
        <JsonEditor
          id={editorId}
          label="Arguments (JSON, you may edit them)"
          text={text}
          onText={setText}
          error={parsed.ok ? undefined : parsed.error}
          rows={Math.min(14, Math.max(4, original.split("\n").length + 1))}
        />
        {text !== original && (
          <p className="edited-note">
            <span>You changed the arguments; the tool receives your version.</span>
            <button type="button" className="link-button" onClick={() => setText(original)}>
              Undo changes
            </button>
          </p>
        )}
      </div>
      <ToolClaims server={request.server} annotations={request.annotations} />
      <fieldset className="remember-scope">
        <legend>Remember a choice to allow this tool or server</legend>
        <label>
          <input type="radio" name={`${editorId}-scope`} checked={always} onChange={() => setScope("always")} />
          Always (saved in the settings)
        </label>
        <label>
          <input type="radio" name={`${editorId}-scope`} checked={!always} onChange={() => setScope("session")} />
          Until Switchboard quits
        </label>
      </fieldset>
    </Modal>
  );
}

import { useMemo, useState } from "react";
import type { Changed, Origin, Read, Remember } from "../bindings";
import { Modal } from "../dialogs/Modal";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { ServerName } from "./ServerName";
import { TrustChange } from "./TrustChange";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface ReadRequest extends PendingBase {
  read: Read;
  /** Set when an allowance the person gave no longer holds: what changed since. */
  changed?: Changed | null;
  askedBy: Origin;
}

export interface ReadAnswer {
  allow: boolean;
  remember: Remember;
}

export interface ReadDialogProps {
  request: ReadRequest;
  onAnswer(answer: ReadAnswer): void;
}

type Scope = "always" | "session";

/** Who asks, as the title names them. */
function asker(origin: Origin): string {
  switch (origin.by) {
    case "agent":
      return origin.name;
    case "model":
      return `A model in conversation “${origin.title}”`;
    case "person":
      return "You";
    case "app":
      return `The app of ${origin.server}`;
  }
}

/** What is read, after "wants ". */
function wanted(read: Read) {
  switch (read.kind) {
    case "resource":
      return (
        <>
          to read <code>{read.uri}</code>
        </>
      );
    case "subscription":
      return (
        <>
          to follow the changes of <code>{read.uri}</code>
        </>
      );
    case "prompt":
      return (
        <>
          the prompt <code>{read.name}</code>
        </>
      );
    case "completion":
      return (
        <>
          suggestions for <code>{read.argument}</code> of <code>{read.of}</code>
        </>
      );
    case "skill":
      return (
        <>
          to use the skill <code>{read.name}</code>
        </>
      );
  }
}

/**
 * An agent reads what a server offers (a resource, a prompt, suggestions for an argument):
 * the person sees exactly what, and whether its reads of that server may go on unasked.
 */
export function ReadDialog({ request, onAnswer }: ReadDialogProps) {
  const [scope, setScope] = useState<Scope>("session");
  const guard = useActivationGuard(
    useMemo(() => contentKey(request.id, request.server, request.read, request.changed), [request]),
  );
  const { read } = request;
  const allow = (remember: Remember) => onAnswer({ allow: true, remember });
  const deny = () => onAnswer({ allow: false, remember: "once" });
  const always = scope === "always";
  const scopeName = `read-${request.id}-scope`;
  return (
    <Modal
      title={
        <>
          {asker(request.askedBy)} wants {wanted(read)} from <ServerName name={request.server} />
        </>
      }
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="denied" />}
      onCancel={deny}
      onPrimary={guard.primary(() => allow("once"))}
      footer={
        <>
          <button type="button" className="button danger" onClick={deny}>
            Deny
          </button>
          <span className="spacer" />
          {read.kind === "skill" ? (
            <button type="button" className="button" {...guard.accepting(false)} onClick={() => allow("tool_always")}>
              Always allow this skill as it is
            </button>
          ) : (
            <button
              type="button"
              className="button"
              {...guard.accepting(false)}
              onClick={() => allow(always ? "server_always" : "server_for_session")}
            >
              {always ? "Always allow reading this server" : "Allow reading this server until quit"}
            </button>
          )}
          <button type="button" className="button primary" {...guard.accepting(false)} onClick={() => allow("once")}>
            Allow once
          </button>
        </>
      }
    >
      {request.changed && <TrustChange changed={request.changed} />}
      <dl className="read-detail" aria-label="What is read">
        {(read.kind === "resource" || read.kind === "subscription") && (
          <div>
            <dt>Resource</dt>
            <dd className="mono">{read.uri}</dd>
          </div>
        )}
        {read.kind === "prompt" &&
          Object.entries(read.arguments).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd className="mono">{value}</dd>
            </div>
          ))}
        {read.kind === "skill" && (
          <>
            <div>
              <dt>Instructions</dt>
              <dd className="mono">{read.uri}</dd>
            </div>
            <div>
              <dt>As it is now</dt>
              <dd className="mono">{read.digest}</dd>
            </div>
          </>
        )}
        {read.kind === "completion" && (
          <div>
            <dt>Typed so far</dt>
            <dd className="mono">{read.value === "" ? <span className="muted">(nothing)</span> : read.value}</dd>
          </div>
        )}
      </dl>
      {read.kind === "skill" ? (
        <p className="muted">A skill is instructions the model follows. Allowed always, it is asked about again if its server changes it.</p>
      ) : (
      <fieldset className="remember-scope">
        <legend>Remember a choice to allow {request.askedBy.by === "model" ? "the model's" : request.askedBy.by === "app" ? "the app's" : "this agent's"} reads of this server</legend>
        <label>
          <input type="radio" name={scopeName} checked={!always} onChange={() => setScope("session")} />
          Until Switchboard quits
        </label>
        <label>
          <input type="radio" name={scopeName} checked={always} onChange={() => setScope("always")} />
          Always (saved in the settings)
        </label>
      </fieldset>
      )}
    </Modal>
  );
}

import { useMemo, useState, type ReactNode } from "react";
import type { Changed, Origin, Read, Remember } from "../bindings";
import { Modal } from "../dialogs/Modal";
import { tx, useT, type MessageId } from "../i18n";
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

/** Who asks, as the title names them: the values of its `by` choice. */
function asker(origin: Origin) {
  return {
    by: origin.by,
    agent: origin.by === "agent" ? origin.name : "",
    conversation: origin.by === "model" ? origin.title : "",
    app: origin.by === "app" ? origin.server : "",
  };
}

/** The title's sentence for each kind of read. */
const TITLES = {
  resource: "requests.read.title.resource",
  subscription: "requests.read.title.subscription",
  prompt: "requests.read.title.prompt",
  completion: "requests.read.title.completion",
  skill: "requests.read.title.skill",
} as const satisfies Record<Read["kind"], MessageId>;

/** Who wants what from which server, its names set apart. */
function title(read: Read, askedBy: Origin, server: string) {
  return tx(TITLES[read.kind], {
    ...asker(askedBy),
    uri: "uri" in read ? read.uri : "",
    name: "name" in read ? read.name : "",
    argument: read.kind === "completion" ? read.argument : "",
    of: read.kind === "completion" ? read.of : "",
    server: <ServerName name={server} />,
    code: (chunks: ReactNode[]) => <code>{chunks}</code>,
  });
}

/**
 * An agent reads what a server offers (a resource, a prompt, suggestions for an argument):
 * the person sees exactly what, and whether its reads of that server may go on unasked.
 */
export function ReadDialog({ request, onAnswer }: ReadDialogProps) {
  const t = useT();
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
      title={title(read, request.askedBy, request.server)}
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="denied" />}
      onCancel={deny}
      onPrimary={guard.primary(() => allow("once"))}
      footer={
        <>
          <button type="button" className="button danger" onClick={deny}>
            {t("requests.read.deny")}
          </button>
          <span className="spacer" />
          {read.kind === "skill" ? (
            <button type="button" className="button" {...guard.accepting(false)} onClick={() => allow("tool_always")}>
              {t("requests.read.allowSkillAlways")}
            </button>
          ) : (
            <button
              type="button"
              className="button"
              {...guard.accepting(false)}
              onClick={() => allow(always ? "server_always" : "server_for_session")}
            >
              {always ? t("requests.read.allowServerAlways") : t("requests.read.allowServerUntilQuit")}
            </button>
          )}
          <button type="button" className="button primary" {...guard.accepting(false)} onClick={() => allow("once")}>
            {t("requests.read.allowOnce")}
          </button>
        </>
      }
    >
      {request.changed && <TrustChange changed={request.changed} />}
      <dl className="read-detail" aria-label={t("requests.read.detail.label")}>
        {(read.kind === "resource" || read.kind === "subscription") && (
          <div>
            <dt>{t("requests.read.detail.resource")}</dt>
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
              <dt>{t("requests.read.detail.instructions")}</dt>
              <dd className="mono">{read.uri}</dd>
            </div>
            <div>
              <dt>{t("requests.read.detail.asItIs")}</dt>
              <dd className="mono">{read.digest}</dd>
            </div>
          </>
        )}
        {read.kind === "completion" && (
          <div>
            <dt>{t("requests.read.detail.typed")}</dt>
            <dd className="mono">{read.value === "" ? <span className="muted">{t("requests.read.detail.nothing")}</span> : read.value}</dd>
          </div>
        )}
      </dl>
      {read.kind === "skill" ? (
        <p className="muted">{t("requests.read.skillNote")}</p>
      ) : (
      <fieldset className="remember-scope">
        <legend>{t("requests.read.remember.legend", { by: request.askedBy.by })}</legend>
        <label>
          <input type="radio" name={scopeName} checked={!always} onChange={() => setScope("session")} />
          {t("requests.read.remember.untilQuit")}
        </label>
        <label>
          <input type="radio" name={scopeName} checked={always} onChange={() => setScope("always")} />
          {t("requests.read.remember.always")}
        </label>
      </fieldset>
      )}
    </Modal>
  );
}

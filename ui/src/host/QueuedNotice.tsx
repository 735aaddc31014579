import { useState } from "react";
import type { Pending_Serialize as Pending } from "../bindings";
import { readSubject } from "../approvals/readSubject";
import { t as translate, useT } from "../i18n";

interface Props {
  pending: Pending[];
  /** The request the person picked: its dialog is open. */
  selectedId: number | null;
  onReview(id: number): void;
  onShowAll(): void;
  /** Queued requests withdrawn unanswered by whoever asked (see `useWithdrawn`). */
  withdrawn?: Pending[];
  onDismissWithdrawn?(): void;
}

/** What the server asks, after its name; called while rendering. */
function asking(pending: Pending): string {
  const q = pending.question;
  switch (q.kind) {
    case "tool_call":
      return translate("host.queued.toolCall", { tool: q.tool });
    case "read":
      return translate("host.queued.read", { subject: readSubject(q.read) });
    case "sampling":
      return translate("host.queued.sampling");
    case "elicitation": {
      const message = (q.params as { message?: string }).message;
      return message === undefined || message === null
        ? translate("host.queued.elicitationNoMessage")
        : translate("host.queued.elicitation", { message: String(message) });
    }
    case "roots":
      return translate("host.queued.roots");
    case "agent_roots":
      return translate("host.queued.agentRoots", { servers: q.servers.join(", ") });
    case "sign_in":
      return translate("host.queued.signIn", { issuer: q.issuerHost });
  }
}

/** What was withdrawn and why it matters, after its server's name; called while rendering. */
function withdrew(pending: Pending): string {
  switch (pending.question.kind) {
    case "roots":
      return translate("host.withdrawn.roots");
    case "sampling":
      return translate("host.withdrawn.sampling");
    case "elicitation":
      return translate("host.withdrawn.elicitation");
    case "agent_roots":
      return translate("host.withdrawn.agentRoots");
    default:
      return translate("host.withdrawn.other");
  }
}

/**
 * Says, without interrupting, that requests wait which no one's action brought forward (a
 * server asking on its own, as at start-up); the person opens one when they choose. Put
 * aside with "Later" until another such request arrives. A queued request withdrawn
 * unanswered (its server stopped waiting) leaves a note saying so until dismissed.
 */
export function QueuedNotice({ pending, selectedId, onReview, onShowAll, withdrawn = [], onDismissWithdrawn }: Props) {
  const t = useT();
  const queued = pending.filter((p) => !p.forward && p.id !== selectedId);
  const [laterUpTo, setLaterUpTo] = useState(0);
  const newest = queued.at(-1);
  const waiting = newest !== undefined && newest.id > laterUpTo;
  // Always there, empty while nothing waits: a screen reader says what is added to a live
  // region it already knows, not one that appears with its words in it.
  return (
    <div className="queued-notices" aria-live="polite" data-testid="queued-notices">
      {withdrawn.length > 0 && (
        <div className="queued-notice" role="group" aria-label={t("host.withdrawn.label")}>
          {withdrawn.map((p) => (
            <p key={p.id}>
              <strong>{p.server}</strong> {withdrew(p)}
            </p>
          ))}
          <button type="button" onClick={onDismissWithdrawn}>
            {t("host.withdrawn.dismiss")}
          </button>
        </div>
      )}
      {waiting && (
        <Waiting queued={queued} onReview={onReview} onShowAll={onShowAll} onLater={() => setLaterUpTo(newest.id)} />
      )}
    </div>
  );
}

function Waiting({
  queued,
  onReview,
  onShowAll,
  onLater,
}: {
  queued: Pending[];
  onReview(id: number): void;
  onShowAll(): void;
  onLater(): void;
}) {
  const t = useT();
  const oldest = queued[0] as Pending;
  const others = queued.length - 1;
  return (
    <div className="queued-notice" role="group" aria-label={t("host.queued.label")}>
      <p>
        <strong>{oldest.server}</strong> {asking(oldest)}
        {others > 0 && <span className="muted">{t("host.queued.others", { count: others })}</span>}
      </p>
      <button type="button" className="button primary" onClick={() => onReview(oldest.id)}>
        {t("host.queued.review")}
      </button>
      {others > 0 && (
        <button type="button" onClick={onShowAll}>
          {t("host.queued.showAll")}
        </button>
      )}
      <button type="button" onClick={onLater}>
        {t("host.queued.later")}
      </button>
    </div>
  );
}

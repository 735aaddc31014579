import { useState } from "react";
import type { Pending_Serialize as Pending } from "../bindings";
import { readSubject } from "../approvals/readSubject";

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

/** What the server asks, after its name. */
function asking(pending: Pending): string {
  const q = pending.question;
  switch (q.kind) {
    case "tool_call":
      return `asks to call ${q.tool}`;
    case "read":
      return `is asked for ${readSubject(q.read)}`;
    case "sampling":
      return "asks for a reply from a model";
    case "elicitation":
      return `asks you: ${String((q.params as { message?: string }).message ?? "a question")}`;
    case "roots":
      return "wants to know which folders it may see";
    case "agent_roots":
      return `offers its folders to ${q.servers.join(", ")}`;
    case "sign_in":
      return `waits for you to sign in at ${q.issuerHost}`;
  }
}

/** What was withdrawn, after its server's name. */
function withdrew(pending: Pending): string {
  switch (pending.question.kind) {
    case "roots":
      return "its request to see your folders";
    case "sampling":
      return "its request for a reply from a model";
    case "elicitation":
      return "its question";
    case "agent_roots":
      return "its offer of its folders";
    default:
      return "its request";
  }
}

/**
 * Says, without interrupting, that requests wait which no one's action brought forward (a
 * server asking on its own, as at start-up); the person opens one when they choose. Put
 * aside with "Later" until another such request arrives. A queued request withdrawn
 * unanswered (its server stopped waiting) leaves a note saying so until dismissed.
 */
export function QueuedNotice({ pending, selectedId, onReview, onShowAll, withdrawn = [], onDismissWithdrawn }: Props) {
  const queued = pending.filter((p) => !p.forward && p.id !== selectedId);
  const [laterUpTo, setLaterUpTo] = useState(0);
  const newest = queued.at(-1);
  const waiting = newest !== undefined && newest.id > laterUpTo;
  if (!waiting && withdrawn.length === 0) return null;
  return (
    <div className="queued-notices">
      {withdrawn.length > 0 && (
        <div className="queued-notice" role="status" aria-label="Requests withdrawn">
          {withdrawn.map((p) => (
            <p key={p.id}>
              <strong>{p.server}</strong> withdrew {withdrew(p)}: it stopped waiting for your answer.
            </p>
          ))}
          <button type="button" onClick={onDismissWithdrawn}>
            Dismiss
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
  const oldest = queued[0] as Pending;
  const others = queued.length - 1;
  return (
    <div className="queued-notice" role="status" aria-label="Requests waiting">
      <p>
        <strong>{oldest.server}</strong> {asking(oldest)}
        {others > 0 && <span className="muted"> and {others === 1 ? "1 more request waits" : `${others} more requests wait`}</span>}
      </p>
      <button type="button" className="button primary" onClick={() => onReview(oldest.id)}>
        Review
      </button>
      {others > 0 && (
        <button type="button" onClick={onShowAll}>
          Show all
        </button>
      )}
      <button type="button" onClick={onLater}>
        Later
      </button>
    </div>
  );
}

import { useState } from "react";
import type { Pending } from "../bindings";
import { readSubject } from "../approvals/ReadDialog";

interface Props {
  pending: Pending[];
  /** The request the person picked: its dialog is open. */
  selectedId: number | null;
  onReview(id: number): void;
  onShowAll(): void;
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
      return `waits for you to sign in at ${q.issuer_host}`;
  }
}

/**
 * Says, without interrupting, that requests wait which no one's action brought forward (a
 * server asking on its own, as at start-up); the person opens one when they choose. Put
 * aside with "Later" until another such request arrives.
 */
export function QueuedNotice({ pending, selectedId, onReview, onShowAll }: Props) {
  const queued = pending.filter((p) => !p.forward && p.id !== selectedId);
  const [laterUpTo, setLaterUpTo] = useState(0);
  const newest = queued.at(-1);
  if (!newest || (newest.id as number) <= laterUpTo) return null;
  const oldest = queued[0] as Pending;
  const others = queued.length - 1;
  return (
    <div className="queued-notice" role="status" aria-label="Requests waiting">
      <p>
        <strong>{oldest.server}</strong> {asking(oldest)}
        {others > 0 && <span className="muted"> and {others === 1 ? "1 more request waits" : `${others} more requests wait`}</span>}
      </p>
      <button type="button" className="button primary" onClick={() => onReview(oldest.id as number)}>
        Review
      </button>
      {others > 0 && (
        <button type="button" onClick={onShowAll}>
          Show all
        </button>
      )}
      <button type="button" onClick={() => setLaterUpTo(newest.id as number)}>
        Later
      </button>
    </div>
  );
}

import { ServerName } from "./ServerName";
import { formatLeft, useNow } from "./time";
import type { ApprovalKind, PendingBase } from "./types";
import "./approvals.css";

export interface QueueItem extends PendingBase {
  kind: ApprovalKind;
  /** What the request wants, in a line (server text: shown as text). */
  summary: string;
}

export interface ApprovalQueueProps {
  items: QueueItem[];
  selectedId?: number;
  onSelect(id: number): void;
}

const KIND_LABEL: Record<ApprovalKind, string> = {
  tool_call: "Tool call",
  read: "Read",
  sampling: "Model reply",
  elicitation: "Question",
  roots: "Folders",
  agent_roots: "Folders offered",
  sign_in: "Sign-in",
};

/** The requests that wait for the person: who asks, what for, and how long they wait. */
export function ApprovalQueue({ items, selectedId, onSelect }: ApprovalQueueProps) {
  const now = useNow();
  return (
    // An explicit role: some engines drop the list role of a list without bullets.
    <ul className="approval-queue" role="list" aria-label="Waiting requests">
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            aria-current={item.id === selectedId ? "true" : undefined}
            onClick={() => onSelect(item.id)}
          >
            <span>
              <ServerName name={item.server} /> <span className="queue-kind">· {KIND_LABEL[item.kind]}</span>
            </span>
            <span className="queue-summary">{item.summary}</span>
            <span className="queue-left">
              {Number.isFinite(item.deadlineMs) ? `${formatLeft(item.deadlineMs - now)} left` : ""}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

import { useT, type MessageId } from "../i18n";
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

const KIND_LABEL: Record<ApprovalKind, MessageId> = {
  tool_call: "approvals.kind.toolCall",
  read: "approvals.kind.read",
  sampling: "approvals.kind.sampling",
  elicitation: "approvals.kind.elicitation",
  roots: "approvals.kind.roots",
  agent_roots: "approvals.kind.agentRoots",
  sign_in: "approvals.kind.signIn",
};

/** The requests that wait for the person: who asks, what for, and how long they wait. */
export function ApprovalQueue({ items, selectedId, onSelect }: ApprovalQueueProps) {
  const t = useT();
  const now = useNow();
  return (
    // An explicit role: some engines drop the list role of a list without bullets.
    <ul className="approval-queue" role="list" aria-label={t("approvals.queue.label")}>
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            aria-current={item.id === selectedId ? "true" : undefined}
            onClick={() => onSelect(item.id)}
          >
            <span>
              <ServerName name={item.server} /> <span className="queue-kind">· {t(KIND_LABEL[item.kind])}</span>
            </span>
            <span className="queue-summary">{item.summary}</span>
            <span className="queue-left">
              {Number.isFinite(item.deadlineMs) ? t("approvals.queue.left", { left: formatLeft(item.deadlineMs - now) }) : ""}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

import type { Pending_Serialize as Pending } from "../bindings";
import { readSubject } from "./readSubject";
import { ApprovalQueue } from "./ApprovalQueue";
import { useApprovals } from "../host/approvalsContext";
import { EmptyState } from "../shell/EmptyState";

/** A line that says what a request wants, for the queue. */
export function summaryOf(pending: Pending): string {
  const q = pending.question;
  switch (q.kind) {
    case "tool_call":
      return `call ${q.tool}`;
    case "read":
      return `${q.askedBy.by === "agent" ? q.askedBy.name : "someone"} reads ${readSubject(q.read)}`;
    case "sampling":
      return "a reply from a model";
    case "elicitation":
      return String((q.params as { message?: string }).message ?? "a question");
    case "roots":
      return "which folders it may see";
    case "agent_roots":
      return `its folders, offered to ${q.servers.join(", ")}`;
    case "sign_in":
      return `sign in at ${q.issuerHost}`;
  }
}

export function ApprovalsView() {
  const { pending, selectedId, select } = useApprovals();
  if (pending.length === 0) {
    return (
      <EmptyState title="Nothing waits for you">
        When a server asks to run a tool, to sample a model, to see your folders or to ask you something, it
        waits here.
      </EmptyState>
    );
  }
  return (
    <ApprovalQueue
      items={pending.map((p) => ({
        id: p.id,
        server: p.server,
        deadlineMs: p.deadlineMs,
        kind: p.question.kind,
        summary: summaryOf(p),
      }))}
      {...(selectedId !== null ? { selectedId } : {})}
      onSelect={select}
    />
  );
}

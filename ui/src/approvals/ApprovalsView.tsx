import type { Pending_Serialize as Pending } from "../bindings";
import { t as translate, useT } from "../i18n";
import { readSubject } from "./readSubject";
import { ApprovalQueue } from "./ApprovalQueue";
import { useApprovals } from "../host/approvalsContext";
import { EmptyState } from "../shell/EmptyState";

/** A line that says what a request wants, for the queue, in the window's language. */
export function summaryOf(pending: Pending): string {
  const q = pending.question;
  switch (q.kind) {
    case "tool_call":
      return translate("approvals.summary.toolCall", { tool: q.tool });
    case "read":
      return q.askedBy.by === "agent"
        ? translate("approvals.summary.agentReads", { agent: q.askedBy.name, subject: readSubject(q.read) })
        : translate("approvals.summary.someoneReads", { subject: readSubject(q.read) });
    case "sampling":
      return translate("approvals.summary.sampling");
    case "elicitation":
      return String((q.params as { message?: string }).message ?? translate("approvals.summary.elicitation"));
    case "roots":
      return translate("approvals.summary.roots");
    case "agent_roots":
      return translate("approvals.summary.agentRoots", { servers: q.servers.join(translate("approvals.list.separator")) });
    case "sign_in":
      return translate("approvals.summary.signIn", { issuer: q.issuerHost });
  }
}

export function ApprovalsView() {
  const t = useT();
  const { pending, selectedId, select } = useApprovals();
  if (pending.length === 0) {
    return <EmptyState title={t("approvals.view.emptyTitle")}>{t("approvals.view.emptyText")}</EmptyState>;
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

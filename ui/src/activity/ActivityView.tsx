import { useEffect, useState } from "react";
import {
  commands,
  type AuditEntry_Serialize as AuditEntry,
  type Pending_Serialize as Pending,
  type ProgressItem_Serialize as ProgressItem,
} from "../bindings";
import { AuditTable } from "./AuditTable";
import { ProgressList } from "./ProgressList";
import { useCallsInFlight } from "./inFlight";
import { useSettled } from "./useSettled";
import { useFetched } from "../host/updates";
import { useApprovals } from "../host/approvalsContext";
import { waitingSince } from "../host/pending";
import { t as translate, useT } from "../i18n";

const PAGE = 100;
/** How long the search waits for the person to stop typing. */
const SEARCH_PAUSE_MS = 250;
const WAIT = "wait-";

/** A server's request that waits for the person (a model reply, an answer), as a running item; called while rendering. */
function waitOf(pending: Pending): ProgressItem | null {
  const kind = pending.question.kind;
  if (kind !== "sampling" && kind !== "elicitation") return null;
  return {
    token: `${WAIT}${pending.id}`,
    server: pending.server,
    read: null,
    label: kind === "sampling" ? translate("activity.running.asksModelReply") : translate("activity.running.asksQuestion"),
    progress: 0,
    total: null,
    message: translate("activity.running.waitsInApprovals"),
    startedMs: waitingSince(pending),
  };
}

export function ActivityView() {
  const t = useT();
  const calls = useCallsInFlight();
  const { pending } = useApprovals();
  const waits = pending.map(waitOf).filter((w): w is ProgressItem => w !== null);
  const running = [...calls, ...waits].sort((a, b) => a.startedMs - b.startedMs);
  const cancel = (token: string) => {
    if (!token.startsWith(WAIT)) return void commands.cancelCall(token).catch(() => {});
    const asked = pending.find((p) => `${WAIT}${p.id}` === token);
    if (!asked) return;
    const declined =
      asked.question.kind === "sampling"
        ? commands.answerSampling(asked.id, asked.server, null)
        : commands.answerElicitation(asked.id, asked.server, { action: "cancel" });
    void declined.catch(() => {});
  };
  const [filter, setFilter] = useState("");
  const search = useSettled(filter, SEARCH_PAUSE_MS);
  // The host searches the whole log, a page at a time; a newer search's answer replaces an older one's.
  const latest = useFetched(() => commands.audit(search, null, PAGE), ["progress_ended", "approval_removed"], [search]);
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [hasMore, setHasMore] = useState(true);
  useEffect(() => {
    setOlder([]);
    setHasMore(true);
  }, [search]);
  const rows = [...(latest.data ?? []), ...older];
  const more = () => {
    const last = rows[rows.length - 1];
    commands.audit(search, last?.id ?? null, PAGE).then((page) => {
      setOlder((o) => [...o, ...page]);
      setHasMore(page.length === PAGE);
    }, () => {});
  };
  return (
    <div className="activity">
      <section aria-labelledby="running-title">
        <h2 id="running-title">{t("activity.running.title")}</h2>
        {running.length === 0 ? (
          <p className="muted">{t("activity.running.none")}</p>
        ) : (
          <ProgressList items={running} onCancel={cancel} />
        )}
      </section>
      <section aria-labelledby="audit-title">
        <h2 id="audit-title">{t("activity.audit.title")}</h2>
        <AuditTable
          rows={rows}
          hasMore={hasMore && rows.length >= PAGE}
          onMore={more}
          filter={filter}
          onFilter={setFilter}
        />
      </section>
    </div>
  );
}

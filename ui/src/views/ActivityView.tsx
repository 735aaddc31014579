import { useState } from "react";
import { commands, type AuditEntry, type ProgressItem as HostProgress } from "../bindings";
import { AuditTable } from "../activity/AuditTable";
import { ProgressList } from "../activity/ProgressList";
import type { AuditRow, ProgressItem } from "../servers/types";
import { useFetched, useHostUpdates } from "../host/updates";

const PAGE = 100;

export function ActivityView() {
  const [running, setRunning] = useState<Map<string, HostProgress>>(new Map());
  useHostUpdates((update) => {
    if (update.kind === "progress") setRunning((m) => new Map(m).set(update.item.token, update.item));
    if (update.kind === "progress_ended")
      setRunning((m) => {
        const next = new Map(m);
        next.delete(update.token);
        return next;
      });
  });
  const latest = useFetched(() => commands.audit(null, PAGE), ["progress_ended", "approval_removed"]);
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [filter, setFilter] = useState("");
  const rows = [...(latest.data ?? []), ...older];
  const more = () => {
    const last = rows[rows.length - 1];
    commands.audit(last?.id ?? null, PAGE).then((page) => {
      setOlder((o) => [...o, ...page]);
      setHasMore(page.length === PAGE);
    }, () => {});
  };
  return (
    <div className="activity">
      <section aria-labelledby="running-title">
        <h2 id="running-title">Running</h2>
        {running.size === 0 ? (
          <p className="muted">No call is under way.</p>
        ) : (
          <ProgressList
            items={[...running.values()] as unknown as ProgressItem[]}
            onCancel={(token) => void commands.cancelCall(token)}
          />
        )}
      </section>
      <section aria-labelledby="audit-title">
        <h2 id="audit-title">Audit log</h2>
        <AuditTable
          rows={rows as unknown as AuditRow[]}
          hasMore={hasMore && rows.length >= PAGE}
          onMore={more}
          filter={filter}
          onFilter={setFilter}
        />
      </section>
    </div>
  );
}

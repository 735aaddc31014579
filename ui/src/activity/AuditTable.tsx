import { useId } from "react";
import type { AuditRow } from "../servers/types";
import { formatDateTime, formatDuration, isoTime } from "../servers/time";
import { decisionTone } from "./decisions";
import "./activity.css";

export interface AuditTableProps {
  rows: AuditRow[];
  onMore?(): void;
  hasMore: boolean;
  filter: string;
  onFilter(f: string): void;
}

const SEARCHED: ReadonlyArray<keyof AuditRow> = ["kind", "server", "subject", "decision", "decided_by", "asked_by", "outcome"];

/** The audit trail, newest first: what was asked, who decided, and what came of it. */
export function AuditTable({ rows, onMore, hasMore, filter, onFilter }: AuditTableProps) {
  const id = useId();
  const needle = filter.trim().toLowerCase();
  const shown = needle === "" ? rows : rows.filter((row) => SEARCHED.some((k) => String(row[k]).toLowerCase().includes(needle)));
  return (
    <div className="audit">
      <div className="audit-filter">
        <label htmlFor={`${id}-filter`}>Filter audit log</label>
        <input id={`${id}-filter`} type="search" value={filter} placeholder="server, tool, decision…" onChange={(e) => onFilter(e.target.value)} />
      </div>
      <div className="table-scroll">
        <table className="audit-table">
          <caption>
            Approvals and calls, newest first
            {needle !== "" && <span className="muted"> ({shown.length} of {rows.length} shown)</span>}
          </caption>
          <thead>
            <tr>
              {["Time", "Server", "Kind", "Subject", "Asked by", "Decision", "Decided by", "Outcome", "Duration"].map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.id}>
                <td className="nowrap">
                  <time dateTime={isoTime(row.at_ms)}>{formatDateTime(row.at_ms)}</time>
                </td>
                <td>{row.server}</td>
                <td>{row.kind}</td>
                <td className="audit-subject">{row.subject}</td>
                <td>{row.asked_by || "—"}</td>
                <td>
                  <span className={`decision decision-${decisionTone(row.decision)}`}>{row.decision}</span>
                </td>
                <td>{row.decided_by}</td>
                <td className="audit-outcome">{row.outcome}</td>
                <td className="nowrap numeric">{row.duration_ms === null ? "—" : formatDuration(row.duration_ms)}</td>
              </tr>
            ))}
            {shown.length === 0 && (
              <tr>
                <td colSpan={9} className="muted">
                  {rows.length === 0 ? "Nothing recorded yet." : "No entry matches the filter."}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {hasMore && onMore && (
        <button type="button" onClick={onMore}>
          Load older
        </button>
      )}
    </div>
  );
}

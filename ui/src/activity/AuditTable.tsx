import { Fragment, useId, useState } from "react";
import type { AuditEntry_Serialize as AuditEntry } from "../bindings";
import { useT, type MessageId } from "../i18n";
import { formatDateTime, formatDuration, isoTime } from "../servers/time";
import { askedByText, decisionText, decisionTone, howGiven, kindText, outcomeText } from "./decisions";
import "./activity.css";

export interface AuditTableProps {
  /** The records that match `filter`: the host searched them. */
  rows: AuditEntry[];
  onMore?(): void;
  hasMore: boolean;
  filter: string;
  onFilter(f: string): void;
}

const COLUMNS: readonly MessageId[] = [
  "activity.audit.column.time",
  "activity.audit.column.server",
  "activity.audit.column.kind",
  "activity.audit.column.subject",
  "activity.audit.column.askedBy",
  "activity.audit.column.decision",
  "activity.audit.column.decidedBy",
  "activity.audit.column.outcome",
  "activity.audit.column.duration",
];

/**
 * The audit trail, newest first: what was asked (its arguments a click away), who decided and how
 * (once, for the session, always, by which rule, by the person's own call), and what came of it. The
 * search runs in the host, over every record kept, not only over those loaded.
 */
export function AuditTable({ rows, onMore, hasMore, filter, onFilter }: AuditTableProps) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (row: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(row)) next.add(row);
      return next;
    });
  const searching = filter.trim() !== "";
  return (
    <div className="audit">
      <div className="audit-filter">
        <label htmlFor={`${id}-filter`}>{t("activity.audit.search")}</label>
        <input
          id={`${id}-filter`}
          type="search"
          value={filter}
          placeholder={t("activity.audit.searchPlaceholder")}
          onChange={(e) => onFilter(e.target.value)}
        />
      </div>
      <div className="table-scroll">
        <table className="audit-table">
          <caption>
            {t("activity.audit.caption")}
            {searching && <span className="muted"> {t("activity.audit.matching", { filter: filter.trim() })}</span>}
          </caption>
          <thead>
            <tr>
              {COLUMNS.map((h) => (
                <th key={h} scope="col">
                  {t(h)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const expanded = open.has(row.id);
              const detailId = `${id}-detail-${row.id}`;
              return (
                <Fragment key={row.id}>
                  <tr>
                    <td className="nowrap">
                      <time dateTime={isoTime(row.atMs)}>{formatDateTime(row.atMs)}</time>
                    </td>
                    <td>{row.server}</td>
                    <td>{kindText(row.kind)}</td>
                    <td className="audit-subject">
                      <button
                        type="button"
                        className="audit-expand"
                        aria-expanded={expanded}
                        aria-controls={expanded ? detailId : undefined}
                        onClick={() => toggle(row.id)}
                      >
                        <span aria-hidden="true">{expanded ? "▾" : "▸"} </span>
                        {row.subject}
                      </button>
                    </td>
                    <td>{row.askedBy ? askedByText(row.askedBy) : "—"}</td>
                    <td>
                      <span className={`decision decision-${decisionTone(row.decision)}`}>{decisionText(row.decision)}</span>
                    </td>
                    <td>{howGiven(row)}</td>
                    <td className="audit-outcome">{outcomeText(row.outcome)}</td>
                    <td className="nowrap numeric">{row.durationMs === null ? "—" : formatDuration(row.durationMs)}</td>
                  </tr>
                  {expanded && (
                    <tr className="audit-detail-row">
                      <td colSpan={COLUMNS.length}>
                        <pre id={detailId} className="audit-detail mono" aria-label={
                            row.kind === "tool_call"
                              ? t("activity.audit.argumentsOf", { subject: row.subject })
                              : t("activity.audit.requestOf", { subject: row.subject })
                          }>
                          {JSON.stringify(row.detail, null, 2)}
                        </pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
            {rows.length === 0 && (
              <tr>
                <td colSpan={COLUMNS.length} className="muted">
                  {searching ? t("activity.audit.noMatch") : t("activity.audit.empty")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {hasMore && onMore && (
        <button type="button" onClick={onMore}>
          {t("activity.audit.loadOlder")}
        </button>
      )}
    </div>
  );
}

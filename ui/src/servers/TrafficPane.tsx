import { useId, useMemo, useState } from "react";
import { formatBytes } from "../content/binary";
import { useFollowTail } from "../followTail";
import { t as translate, useT } from "../i18n";
import type { ShownHeader, TrafficEntry_Serialize as TrafficEntry } from "../bindings";
import {
  MAX_RENDERED_TRAFFIC,
  copyText,
  describeKind,
  filterTraffic,
  pairs,
  prettyJson,
  type DirectionFilter,
} from "./traffic";
import { formatClock, formatDuration, isoTime } from "./time";
import "./servers.css";

export interface TrafficPaneProps {
  entries: TrafficEntry[];
  /** Older messages dropped to stay within the bounds. */
  dropped: number;
  /** Messages never recorded because the recorder fell behind. */
  missed: number;
  /** The headers sent with every HTTP request, credentials masked. */
  headers: ShownHeader[];
  /** Empties the kept messages; without it, nothing offers to. */
  onClear?(): void;
  /** Puts text on the clipboard (the real clipboard unless a test says otherwise). */
  copy?(text: string): Promise<void>;
}

/** Every JSON-RPC message a server exchanged, newest last; a request shown with its response. */
export function TrafficPane({ entries, dropped, missed, headers, onClear, copy = copyText }: TrafficPaneProps) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState("");
  const [direction, setDirection] = useState<DirectionFilter>("all");
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  // What became of the last copy: the message copied, or why it could not be.
  const [copied, setCopied] = useState<{ seq: number } | { failed: string } | null>(null);

  const matching = useMemo(() => filterTraffic(entries, { text, direction }), [entries, text, direction]);
  const shown = matching.length > MAX_RENDERED_TRAFFIC ? matching.slice(-MAX_RENDERED_TRAFFIC) : matching;
  const bySeq = useMemo(() => new Map(entries.map((e) => [e.seq, e])), [entries]);
  const partners = useMemo(() => pairs(entries), [entries]);

  const { listRef, onScroll, jumpToLatest } = useFollowTail(shown);

  const toggle = (seq: number) =>
    setOpen((set) => {
      const next = new Set(set);
      if (next.has(seq)) next.delete(seq);
      else next.add(seq);
      return next;
    });
  const copyJson = (entry: TrafficEntry) =>
    copy(prettyJson(entry.json)).then(
      () => setCopied({ seq: entry.seq }),
      (err: unknown) => setCopied({ failed: err instanceof Error ? err.message : String(err) }),
    );

  return (
    <section className="traffic-pane" aria-labelledby={`${id}-title`}>
      <div className="log-head">
        <h3 id={`${id}-title`}>{t("servers.traffic.title")}</h3>
        <p className="muted">{t("servers.traffic.note")}</p>
        {onClear && (
          <button type="button" onClick={onClear}>
            {t("servers.traffic.clear")}
          </button>
        )}
      </div>
      {headers.length > 0 && (
        <details className="traffic-headers">
          <summary>{t("servers.traffic.headers", { count: headers.length })}</summary>
          <dl className="facts mono">
            {headers.map((h) => (
              <div key={h.name}>
                <dt>{h.name}</dt>
                <dd>{h.value}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      <div className="log-filters">
        <input
          type="search"
          aria-label={t("servers.traffic.filter")}
          placeholder={t("servers.traffic.filterPlaceholder")}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="field inline">
          <label htmlFor={`${id}-direction`}>{t("servers.traffic.direction")}</label>
          <select id={`${id}-direction`} value={direction} onChange={(e) => setDirection(e.target.value as DirectionFilter)}>
            <option value="all">{t("servers.traffic.direction.all")}</option>
            <option value="sent">{t("servers.traffic.direction.sent")}</option>
            <option value="received">{t("servers.traffic.direction.received")}</option>
          </select>
        </div>
      </div>
      <p className="muted log-count" aria-live="polite">
        {matching.length > MAX_RENDERED_TRAFFIC
          ? t("servers.traffic.lastMatching", { shown: MAX_RENDERED_TRAFFIC, count: matching.length })
          : t("servers.traffic.matching", { matching: matching.length, count: entries.length })}
        {dropped > 0 && ` · ${t("servers.traffic.dropped", { count: dropped })}`}
        {missed > 0 && ` · ${t("servers.traffic.missed", { count: missed })}`}
      </p>
      {copied && (
        <p className="muted" role="status">
          {"seq" in copied
            ? t("servers.traffic.copied", { seq: copied.seq })
            : t("servers.traffic.copyFailed", { message: copied.failed })}
        </p>
      )}
      <div
        ref={listRef}
        className="traffic-list"
        role="region"
        aria-label={t("servers.traffic.messages")}
        tabIndex={0}
        onScroll={onScroll}
      >
        {shown.length === 0 ? (
          <p className="muted">{entries.length === 0 ? t("servers.traffic.empty") : t("servers.traffic.noMatch")}</p>
        ) : (
          <ol>
            {shown.map((entry) => {
              const partnerSeq = partners.get(entry.seq);
              const partner = partnerSeq === undefined ? undefined : bySeq.get(partnerSeq);
              return (
                <TrafficRow
                  key={entry.seq}
                  entry={entry}
                  partner={partner}
                  open={open.has(entry.seq)}
                  onToggle={() => toggle(entry.seq)}
                  onCopy={copyJson}
                />
              );
            })}
          </ol>
        )}
      </div>
      {jumpToLatest}
    </section>
  );
}

interface RowProps {
  entry: TrafficEntry;
  /** Its request or response, when kept. */
  partner: TrafficEntry | undefined;
  open: boolean;
  onToggle(): void;
  onCopy(entry: TrafficEntry): void;
}

function TrafficRow({ entry, partner, open, onToggle, onCopy }: RowProps) {
  const t = useT();
  const sent = entry.direction === "sent";
  const detailId = `traffic-${entry.server}-${entry.seq}`;
  const kind = describeKind(entry);
  return (
    <li className={`traffic-entry ${entry.direction} kind-${entry.kind}`} data-seq={entry.seq}>
      <button type="button" className="traffic-summary" aria-expanded={open} aria-controls={detailId} onClick={onToggle}>
        <span className="traffic-arrow" aria-label={sent ? t("servers.traffic.sent") : t("servers.traffic.received")}>
          {sent ? "→" : "←"}
        </span>
        <time dateTime={isoTime(entry.atMs)}>{formatClock(entry.atMs)}</time>
        <span className="traffic-method mono" title={entry.method ?? undefined}>
          {entry.method ?? kind}
        </span>
        <span className="traffic-kind">{kind}</span>
        <span className="traffic-id mono">{entry.id !== null ? t("servers.traffic.id", { id: entry.id }) : ""}</span>
        <span className="traffic-size">{formatBytes(entry.bytes)}</span>
        <span className="traffic-timing">{timing(entry, partner)}</span>
      </button>
      {open && (
        <div id={detailId} className="traffic-detail">
          <Message entry={entry} onCopy={onCopy} />
          {partner && (
            <div className="traffic-partner">
              <p className="muted">
                {partner.seq > entry.seq
                  ? t("servers.traffic.response", { duration: formatDuration(partner.elapsedMs ?? 0) })
                  : t("servers.traffic.request", { duration: formatDuration(entry.elapsedMs ?? 0) })}
              </p>
              <Message entry={partner} onCopy={onCopy} />
            </div>
          )}
        </div>
      )}
    </li>
  );
}

/** How a message relates in time to its partner. Call it while rendering. */
function timing(entry: TrafficEntry, partner: TrafficEntry | undefined): string {
  if (entry.elapsedMs !== null) return translate("servers.traffic.in", { duration: formatDuration(entry.elapsedMs) });
  if (entry.kind !== "request") return "";
  if (partner) return translate("servers.traffic.answeredIn", { duration: formatDuration(partner.elapsedMs ?? 0) });
  return translate("servers.traffic.noAnswer");
}

function Message({ entry, onCopy }: { entry: TrafficEntry; onCopy(entry: TrafficEntry): void }) {
  const t = useT();
  const kind = describeKind(entry);
  return (
    <div className="traffic-message">
      <div className="traffic-message-head">
        <span className="muted">
          {entry.direction === "sent" ? t("servers.traffic.sentKind", { kind }) : t("servers.traffic.receivedKind", { kind })} ·{" "}
          {formatBytes(entry.bytes)}
          {entry.truncated && ` · ${t("servers.traffic.cut")}`}
        </span>
        <button type="button" onClick={() => onCopy(entry)}>
          {t("servers.traffic.copyJson")}
        </button>
      </div>
      <pre className="traffic-json">{prettyJson(entry.json)}</pre>
    </div>
  );
}

import { useId, useMemo, useState } from "react";
import { formatBytes } from "../content/binary";
import { useFollowTail } from "../followTail";
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
  const id = useId();
  const [text, setText] = useState("");
  const [direction, setDirection] = useState<DirectionFilter>("all");
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const [copied, setCopied] = useState<string | null>(null);

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
      () => setCopied(`Copied message ${entry.seq}.`),
      (err: unknown) => setCopied(`Could not copy: ${err instanceof Error ? err.message : String(err)}`),
    );

  return (
    <section className="traffic-pane" aria-labelledby={`${id}-title`}>
      <div className="log-head">
        <h3 id={`${id}-title`}>Traffic</h3>
        <p className="muted">Every JSON-RPC message, both ways. Secrets of the server's settings are masked.</p>
        {onClear && (
          <button type="button" onClick={onClear}>
            Clear traffic
          </button>
        )}
      </div>
      {headers.length > 0 && (
        <details className="traffic-headers">
          <summary>Headers sent with every request ({headers.length})</summary>
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
          aria-label="Filter traffic"
          placeholder="Method or text…"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="field inline">
          <label htmlFor={`${id}-direction`}>Direction</label>
          <select id={`${id}-direction`} value={direction} onChange={(e) => setDirection(e.target.value as DirectionFilter)}>
            <option value="all">both ways</option>
            <option value="sent">sent to the server</option>
            <option value="received">received from it</option>
          </select>
        </div>
      </div>
      <p className="muted log-count" aria-live="polite">
        {matching.length > MAX_RENDERED_TRAFFIC
          ? `The last ${MAX_RENDERED_TRAFFIC.toLocaleString("en")} of ${matching.length.toLocaleString("en")} matching messages`
          : `${matching.length.toLocaleString("en")} of ${entries.length.toLocaleString("en")} messages`}
        {dropped > 0 && ` · ${dropped.toLocaleString("en")} older messages dropped`}
        {missed > 0 && ` · ${missed.toLocaleString("en")} messages not recorded (too many at once)`}
      </p>
      {copied && (
        <p className="muted" role="status">
          {copied}
        </p>
      )}
      <div
        ref={listRef}
        className="traffic-list"
        role="region"
        aria-label="Messages"
        tabIndex={0}
        onScroll={onScroll}
      >
        {shown.length === 0 ? (
          <p className="muted">{entries.length === 0 ? "No messages yet." : "No message matches the filter."}</p>
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
  const sent = entry.direction === "sent";
  const detailId = `traffic-${entry.server}-${entry.seq}`;
  return (
    <li className={`traffic-entry ${entry.direction} kind-${entry.kind}`} data-seq={entry.seq}>
      <button type="button" className="traffic-summary" aria-expanded={open} aria-controls={detailId} onClick={onToggle}>
        <span className="traffic-arrow" aria-label={sent ? "sent" : "received"}>
          {sent ? "→" : "←"}
        </span>
        <time dateTime={isoTime(entry.atMs)}>{formatClock(entry.atMs)}</time>
        <span className="traffic-method mono" title={entry.method ?? undefined}>
          {entry.method ?? describeKind(entry)}
        </span>
        <span className="traffic-kind">{describeKind(entry)}</span>
        <span className="traffic-id mono">{entry.id !== null ? `id ${entry.id}` : ""}</span>
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
                  ? `Its response, ${formatDuration(partner.elapsedMs ?? 0)} later:`
                  : `The request it answers, ${formatDuration(entry.elapsedMs ?? 0)} earlier:`}
              </p>
              <Message entry={partner} onCopy={onCopy} />
            </div>
          )}
        </div>
      )}
    </li>
  );
}

/** How a message relates in time to its partner. */
function timing(entry: TrafficEntry, partner: TrafficEntry | undefined): string {
  if (entry.elapsedMs !== null) return `in ${formatDuration(entry.elapsedMs)}`;
  if (entry.kind !== "request") return "";
  if (partner) return `answered in ${formatDuration(partner.elapsedMs ?? 0)}`;
  return "no answer yet";
}

function Message({ entry, onCopy }: { entry: TrafficEntry; onCopy(entry: TrafficEntry): void }) {
  return (
    <div className="traffic-message">
      <div className="traffic-message-head">
        <span className="muted">
          {entry.direction === "sent" ? "Sent" : "Received"} {describeKind(entry)} · {formatBytes(entry.bytes)}
          {entry.truncated && " · cut for display"}
        </span>
        <button type="button" onClick={() => onCopy(entry)}>
          Copy JSON
        </button>
      </div>
      <pre className="traffic-json">{prettyJson(entry.json)}</pre>
    </div>
  );
}

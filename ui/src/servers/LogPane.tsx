import { useId, useMemo, useState } from "react";
import { useFollowTail } from "../followTail";
import type { LoggingLevel } from "../mcp/schema";
import type { LogEntry_Serialize as LogEntry } from "../bindings";
import { LOG_LEVELS, LOG_SOURCES, MAX_RENDERED, filterLog, levelRank, type LogSource } from "./logFilter";
import { formatClock, isoTime } from "./time";
import "./servers.css";

export interface LogPaneProps {
  entries: LogEntry[];
  /** The level last requested from the server; null if none was. */
  level: LoggingLevel | null;
  canSetLevel: boolean;
  onSetLevel(level: LoggingLevel): void;
  onClear?(): void;
  /** Opens what the person may change of the server's sandbox (from a sandbox note). */
  onChangeSandbox?: (() => void) | undefined;
}

/** A server's log: its stderr, what the transport noticed, and its own messages. */
export function LogPane({ entries, level, canSetLevel, onSetLevel, onClear, onChangeSandbox }: LogPaneProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [sources, setSources] = useState<ReadonlySet<LogSource>>(() => new Set(LOG_SOURCES.map((s) => s.source)));
  const [minLevel, setMinLevel] = useState<LoggingLevel | null>(null);

  const matching = useMemo(() => filterLog(entries, { text, sources, minLevel }), [entries, text, sources, minLevel]);
  const shown = matching.length > MAX_RENDERED ? matching.slice(-MAX_RENDERED) : matching;

  const { listRef, onScroll, jumpToLatest } = useFollowTail(shown);

  const toggleSource = (source: LogSource, on: boolean) =>
    setSources((set) => {
      const next = new Set(set);
      if (on) next.add(source);
      else next.delete(source);
      return next;
    });

  return (
    <section className="log-pane" aria-labelledby={`${id}-title`}>
      <div className="log-head">
        <h3 id={`${id}-title`}>Log</h3>
        <div className="field inline">
          <label htmlFor={`${id}-server-level`}>Server log level</label>
          <select
            id={`${id}-server-level`}
            value={level ?? ""}
            disabled={!canSetLevel}
            aria-describedby={canSetLevel ? undefined : `${id}-no-logging`}
            onChange={(e) => e.target.value !== "" && onSetLevel(e.target.value as LoggingLevel)}
          >
            {level === null && <option value="">its default</option>}
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
          {!canSetLevel && (
            <span id={`${id}-no-logging`} className="hint">
              This server offers no logging control.
            </span>
          )}
        </div>
        {onClear && (
          <button type="button" onClick={onClear}>
            Clear log
          </button>
        )}
      </div>

      <div className="log-filters">
        <input type="search" aria-label="Filter log lines" placeholder="Filter…" value={text} onChange={(e) => setText(e.target.value)} />
        <fieldset className="inline">
          <legend className="visually-hidden">Sources</legend>
          {LOG_SOURCES.map(({ source, label }) => (
            <label key={source} className="check">
              <input type="checkbox" checked={sources.has(source)} onChange={(e) => toggleSource(source, e.target.checked)} />
              {label}
            </label>
          ))}
        </fieldset>
        <div className="field inline">
          <label htmlFor={`${id}-min-level`}>Minimum level</label>
          <select
            id={`${id}-min-level`}
            value={minLevel ?? ""}
            aria-describedby={`${id}-min-level-hint`}
            onChange={(e) => setMinLevel(e.target.value === "" ? null : (e.target.value as LoggingLevel))}
          >
            <option value="">all</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
          <span id={`${id}-min-level-hint`} className="visually-hidden">
            Lines without a level always show.
          </span>
        </div>
      </div>

      <p className="muted log-count">
        {matching.length > MAX_RENDERED
          ? `The last ${MAX_RENDERED.toLocaleString("en")} of ${matching.length.toLocaleString("en")} matching lines`
          : `${matching.length.toLocaleString("en")} of ${entries.length.toLocaleString("en")} lines`}
      </p>
      <div
        ref={listRef}
        className="log-lines"
        role="log"
        aria-live="off" // far too chatty to announce line by line
        aria-label="Log lines"
        tabIndex={0}
        onScroll={onScroll}
      >
        {shown.length === 0 ? (
          <p className="muted">{entries.length === 0 ? "Nothing logged yet." : "No line matches the filter."}</p>
        ) : (
          <ol>
            {shown.map(({ entry, index }) => (
              <LogLine key={index} entry={entry} onChangeSandbox={onChangeSandbox} />
            ))}
          </ol>
        )}
      </div>
      {jumpToLatest}
    </section>
  );
}

function LogLine({ entry, onChangeSandbox }: { entry: LogEntry; onChangeSandbox: (() => void) | undefined }) {
  const level = entry.level ?? undefined;
  // Only the known levels become a class: the string comes from the server.
  const levelClass = levelRank(entry.level) >= 0 ? ` level-${entry.level}` : "";
  return (
    <li className={`log-line source-${entry.source}${levelClass}`}>
      <time dateTime={isoTime(entry.atMs)}>{formatClock(entry.atMs)}</time>
      <span className="log-source">{entry.source}</span>
      <span className="log-level">{level ?? ""}</span>
      <span className="log-text">
        {entry.text}
        {entry.source === "sandbox" && onChangeSandbox && (
          <>
            {" "}
            <button type="button" className="link-button" onClick={onChangeSandbox}>
              Change its sandbox…
            </button>
          </>
        )}
      </span>
    </li>
  );
}

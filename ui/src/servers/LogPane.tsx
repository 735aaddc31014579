import { useId, useMemo, useState } from "react";
import { useFollowTail } from "../followTail";
import { t as translate, useT, type MessageId } from "../i18n";
import type { LoggingLevel } from "../mcp/schema";
import type { LogEntry_Serialize as LogEntry, SandboxNote } from "../bindings";
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
  const t = useT();
  const id = useId();
  const [text, setText] = useState("");
  const [sources, setSources] = useState<ReadonlySet<LogSource>>(() => new Set(LOG_SOURCES.map((s) => s.source)));
  const [minLevel, setMinLevel] = useState<LoggingLevel | null>(null);

  // A host's note is matched as the window words it, not by the English beside it.
  const matching = useMemo(() => filterLog(entries, { text, sources, minLevel }, lineText), [entries, text, sources, minLevel, t]);
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
        <h3 id={`${id}-title`}>{t("servers.log.title")}</h3>
        <div className="field inline">
          <label htmlFor={`${id}-server-level`}>{t("servers.log.serverLevel")}</label>
          <select
            id={`${id}-server-level`}
            value={level ?? ""}
            disabled={!canSetLevel}
            aria-describedby={canSetLevel ? undefined : `${id}-no-logging`}
            onChange={(e) => e.target.value !== "" && onSetLevel(e.target.value as LoggingLevel)}
          >
            {level === null && <option value="">{t("servers.log.itsDefault")}</option>}
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
          {!canSetLevel && (
            <span id={`${id}-no-logging`} className="hint">
              {t("servers.log.noLogging")}
            </span>
          )}
        </div>
        {onClear && (
          <button type="button" onClick={onClear}>
            {t("servers.log.clear")}
          </button>
        )}
      </div>

      <div className="log-filters">
        <input
          type="search"
          aria-label={t("servers.log.filter")}
          placeholder={t("servers.log.filterPlaceholder")}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <fieldset className="inline">
          <legend className="visually-hidden">{t("servers.log.sources")}</legend>
          {LOG_SOURCES.map(({ source, label }) => (
            <label key={source} className="check">
              <input type="checkbox" checked={sources.has(source)} onChange={(e) => toggleSource(source, e.target.checked)} />
              {t(label)}
            </label>
          ))}
        </fieldset>
        <div className="field inline">
          <label htmlFor={`${id}-min-level`}>{t("servers.log.minLevel")}</label>
          <select
            id={`${id}-min-level`}
            value={minLevel ?? ""}
            aria-describedby={`${id}-min-level-hint`}
            onChange={(e) => setMinLevel(e.target.value === "" ? null : (e.target.value as LoggingLevel))}
          >
            <option value="">{t("servers.log.allLevels")}</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
          <span id={`${id}-min-level-hint`} className="visually-hidden">
            {t("servers.log.minLevelHint")}
          </span>
        </div>
      </div>

      <p className="muted log-count">
        {matching.length > MAX_RENDERED
          ? t("servers.log.lastMatching", { shown: MAX_RENDERED, count: matching.length })
          : t("servers.log.matching", { matching: matching.length, count: entries.length })}
      </p>
      <div
        ref={listRef}
        className="log-lines"
        role="log"
        aria-live="off" // far too chatty to announce line by line
        aria-label={t("servers.log.lines")}
        tabIndex={0}
        onScroll={onScroll}
      >
        {shown.length === 0 ? (
          <p className="muted">{entries.length === 0 ? t("servers.log.empty") : t("servers.log.noMatch")}</p>
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
  const t = useT();
  // The source in a word of the window's language; one it does not know, as the host named it.
  const tag = LOG_SOURCES.find((s) => s.source === entry.source)?.tag;
  const level = entry.level ?? undefined;
  // Only the known levels become a class: the string comes from the server.
  const levelClass = levelRank(entry.level) >= 0 ? ` level-${entry.level}` : "";
  return (
    <li className={`log-line source-${entry.source}${levelClass}`}>
      <time dateTime={isoTime(entry.atMs)}>{formatClock(entry.atMs)}</time>
      <span className="log-source">{tag ? t(tag) : entry.source}</span>
      <span className="log-level">{level ?? ""}</span>
      <span className="log-text">
        {lineText(entry)}
        {entry.source === "sandbox" && onChangeSandbox && (
          <>
            {" "}
            <button type="button" className="link-button" onClick={onChangeSandbox}>
              {t("servers.log.changeSandbox")}
            </button>
          </>
        )}
      </span>
    </li>
  );
}

/** A line's text as the window shows it: a host's note in the window's language, the rest as it came. */
function lineText(entry: LogEntry): string {
  return entry.note ? translate(NOTES[entry.note]) : entry.text;
}

/** The host's notes, in the window's language (each as the host says it in English, checked in the tests). */
const NOTES: { readonly [Note in SandboxNote]: MessageId } = {
  noNetwork: "servers.log.note.noNetwork",
  onlyShared: "servers.log.note.onlyShared",
  rebound: "servers.log.note.rebound",
};

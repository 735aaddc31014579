import type { LoggingLevel } from "../mcp/schema";
import type { LogEntry_Serialize as LogEntry } from "../bindings";
import type { MessageId } from "../i18n";

/** MCP logging levels, least to most severe (RFC 5424 order). */
export const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export type LogSource = LogEntry["source"];
/** Each source with its filter's label and its short tag on a line, as message ids. */
export const LOG_SOURCES: ReadonlyArray<{ source: LogSource; label: MessageId; tag: MessageId }> = [
  { source: "stderr", label: "servers.log.source.stderr", tag: "servers.log.sourceTag.stderr" },
  // Not the messages themselves (those are in the Traffic tab): what could not be read of them.
  { source: "protocol", label: "servers.log.source.protocol", tag: "servers.log.sourceTag.protocol" },
  { source: "server", label: "servers.log.source.server", tag: "servers.log.sourceTag.server" },
  { source: "sandbox", label: "servers.log.source.sandbox", tag: "servers.log.sourceTag.sandbox" },
];

/** Rendering stops at this many lines (the newest); more is slow and nobody reads it. */
export const MAX_RENDERED = 2000;

export interface LogFilter {
  text: string;
  sources: ReadonlySet<LogSource>;
  /** Applies to lines that carry a level; null shows all. */
  minLevel: LoggingLevel | null;
}

export function levelRank(level: string | null): number {
  return LOG_LEVELS.indexOf(level as LoggingLevel);
}

/** The entries that pass the filter, each with its index in `entries` (a stable key); the text filter matches each line as `shown` shows it. */
export function filterLog(
  entries: readonly LogEntry[],
  filter: LogFilter,
  shown: (entry: LogEntry) => string = (entry) => entry.text,
): Array<{ entry: LogEntry; index: number }> {
  const needle = filter.text.trim().toLowerCase();
  const floor = filter.minLevel === null ? -1 : levelRank(filter.minLevel);
  const kept: Array<{ entry: LogEntry; index: number }> = [];
  entries.forEach((entry, index) => {
    if (!filter.sources.has(entry.source)) return;
    // A line without a (known) level cannot be ranked, so a level floor does not hide it.
    const rank = levelRank(entry.level);
    if (rank >= 0 && rank < floor) return;
    if (needle !== "" && !shown(entry).toLowerCase().includes(needle)) return;
    kept.push({ entry, index });
  });
  return kept;
}

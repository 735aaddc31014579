import { commands, type LogEntry_Serialize as LogEntry } from "../bindings";
import { useLive } from "../host/live";
import { appendBounded } from "./liveLog";

const keyOf = (e: LogEntry) => `${e.atMs}\u0000${e.source}\u0000${e.text}`;

/**
 * A server's log as the host keeps it, then as it grows, kept live (see `useLive`): a
 * server restarted just as its pane opens (saved from its form, say) loses no line.
 */
export function useServerLog(name: string): { entries: LogEntry[]; clear: () => void } {
  const [entries, setEntries] = useLive<LogEntry[], LogEntry>(
    {
      fetch: () => commands.serverLog(name),
      change: (update) => (update.kind === "log" && update.entry.server === name ? update.entry : null),
      apply: (list, entry) => appendBounded(list, entry),
      // Lines heard during the fetch that it holds already are not added twice.
      settle: (fetched, heard) => {
        const known = new Set(fetched.map(keyOf));
        return heard.filter((e) => !known.has(keyOf(e))).reduce((list, e) => appendBounded(list, e), fetched);
      },
    },
    [],
    [name],
  );
  const clear = () => {
    void commands.clearServerLog(name);
    setEntries([]);
  };
  return { entries, clear };
}

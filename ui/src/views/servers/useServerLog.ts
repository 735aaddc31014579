import { useEffect, useState } from "react";
import { commands, events, type LogEntry, type Update } from "../../bindings";
import { useHostResync } from "../../host/updates";
import { appendBounded } from "../../servers/liveLog";

const keyOf = (e: LogEntry) => `${e.at_ms}\u0000${e.source}\u0000${e.text}`;

/**
 * A server's log as the host keeps it, then as it grows. The host is listened to before
 * its log is fetched, and lines that arrive meanwhile are added after the fetched ones
 * (unless the fetch held them already): a server restarted just as its pane opens (saved
 * from its form, say) loses no line to the gap.
 */
export function useServerLog(name: string): { entries: LogEntry[]; clear: () => void } {
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [round, setRound] = useState(0);
  useHostResync(() => setRound((r) => r + 1));
  useEffect(() => {
    let live = true;
    let stop: (() => void) | null = null;
    // Lines heard while the fetch is under way; null once it settled.
    let early: LogEntry[] | null = [];
    const heard = (entry: LogEntry) => {
      if (early) early.push(entry);
      else setEntries((list) => appendBounded(list, entry));
    };
    events.hostUpdate
      .listen((event: { payload: Update }) => {
        const update = event.payload;
        if (update.kind === "log" && update.entry.server === name) heard(update.entry as LogEntry);
      })
      .then((unlisten) => {
        if (!live) return unlisten();
        stop = unlisten;
        const settle = (history: LogEntry[]) => {
          if (!live) return;
          const known = new Set(history.map(keyOf));
          const since = (early ?? []).filter((e) => !known.has(keyOf(e)));
          early = null;
          setEntries(since.reduce((list, e) => appendBounded(list, e), history));
        };
        commands.serverLog(name).then(settle, () => settle([]));
      }, () => {});
    return () => {
      live = false;
      stop?.();
    };
  }, [name, round]);
  const clear = () => {
    void commands.clearServerLog(name);
    setEntries([]);
  };
  return { entries, clear };
}

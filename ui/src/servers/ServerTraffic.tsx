import { useEffect, useRef, useState } from "react";
import { commands, events, type TrafficEntry_Serialize as TrafficEntry, type TrafficLog_Serialize as TrafficLog } from "../bindings";
import { errorMessage } from "../errors";
import { useT } from "../i18n";
import { TrafficPane } from "./TrafficPane";
import { appendTraffic } from "./traffic";

interface HostEvent<T> {
  listen(handler: (event: { payload: T }) => void): Promise<() => void>;
}

/**
 * One server's traffic: what the host kept, then each message as it comes, while shown.
 * Messages that arrive while the kept ones are fetched are added after them.
 */
export function ServerTraffic({ name }: { name: string }) {
  const t = useT();
  const [loaded, setLoaded] = useState<TrafficLog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const early = useRef<TrafficEntry[]>([]);

  useEffect(() => {
    let live = true;
    const stops: Array<() => void> = [];
    const listen = <T,>(event: HostEvent<T>, handler: (payload: T) => void) =>
      event.listen((e) => live && handler(e.payload)).then(
        (stop) => (live ? stops.push(stop) : stop()),
        () => {},
      );
    early.current = [];
    setLoaded(null);
    void listen(events.trafficAdded, (entry) => {
      if (entry.server !== name) return;
      setLoaded((state) => {
        if (state === null) {
          early.current.push(entry);
          return state;
        }
        return { ...state, ...appendTraffic(state, entry) };
      });
    });
    void listen(events.trafficLost, () => setRound((r) => r + 1));
    commands.serverTraffic(name).then(
      (kept) => {
        if (!live) return;
        let state = kept;
        for (const entry of early.current) state = { ...state, ...appendTraffic(state, entry) };
        early.current = [];
        setLoaded(state);
        setError(null);
      },
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
      stops.forEach((stop) => stop());
    };
  }, [name, round]);

  if (error) {
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  }
  if (loaded === null) return <p className="muted">{t("servers.traffic.loading")}</p>;
  // Fetched again once cleared: what arrived meanwhile is shown, nothing from before.
  const clear = () =>
    commands.clearServerTraffic(name).then(
      () => setRound((r) => r + 1),
      (err: unknown) => setError(errorMessage(err)),
    );
  return (
    <TrafficPane
      entries={loaded.entries}
      dropped={loaded.dropped}
      missed={loaded.missed}
      headers={loaded.headers}
      onClear={() => void clear()}
    />
  );
}

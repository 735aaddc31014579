import { useEffect, useRef, useState } from "react";
import { events, type Update } from "../bindings";

type Kind = Update["kind"];

interface HostEvent<T> {
  listen(handler: (event: { payload: T }) => void): Promise<() => void>;
}

/** Calls `handler` with each event of one kind the host sends, while the component lives. */
function useHostEvent<T>(event: HostEvent<T>, handler: (payload: T) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    event
      .listen((e) => latest.current(e.payload))
      .then(
        (unlisten) => (live ? (stop = unlisten) : unlisten()),
        () => {},
      );
    return () => {
      live = false;
      stop?.();
    };
  }, [event]);
}

/** Calls `onUpdate` for each change the host announces, while the component lives. */
export function useHostUpdates(onUpdate: (update: Update) => void): void {
  useHostEvent(events.hostUpdate as HostEvent<Update>, onUpdate);
}

/**
 * Calls `onResync` when the host says the window missed some of its updates: whatever the
 * window holds from them may be stale, and is to be fetched again.
 */
export function useHostResync(onResync: () => void): void {
  useHostEvent(events.hostResync as HostEvent<unknown>, onResync);
}

/**
 * Data fetched from the host, fetched again whenever an update of one of `kinds` arrives
 * (updates say what changed; the host stays the one source of truth), and when updates were lost.
 */
export function useFetched<T>(
  fetch: () => Promise<T>,
  kinds: readonly Kind[],
  deps: readonly unknown[] = [],
): { data: T | null; error: unknown; refresh: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const refresh = () => setRound((r) => r + 1);
  useEffect(() => {
    let live = true;
    fetch().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
      },
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [round, ...deps]);
  useHostUpdates((update) => {
    if (kinds.includes(update.kind)) refresh();
  });
  useHostResync(refresh);
  return { data, error, refresh };
}

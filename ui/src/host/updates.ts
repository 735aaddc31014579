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
 * (updates say what changed; the host stays the one source of truth), and when updates were
 * lost. It is first fetched once the window listens: a change announced in between (a server
 * that became ready as the view opened) is then in the answer, not lost. Only the newest
 * fetch's answer is kept.
 */
export function useFetched<T>(
  fetch: () => Promise<T>,
  kinds: readonly Kind[],
  deps: readonly unknown[] = [],
): { data: T | null; error: unknown; refresh: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef({ fetch, kinds });
  latest.current = { fetch, kinds };
  const refetch = useRef<() => void>(() => {});
  useEffect(() => {
    let live = true;
    let stop: (() => void) | null = null;
    let round = 0;
    const fetchNow = () => {
      const mine = ++round;
      latest.current.fetch().then(
        (value) => {
          if (!live || mine !== round) return;
          setData(value);
          setError(null);
        },
        (err: unknown) => live && mine === round && setError(err),
      );
    };
    (events.hostUpdate as HostEvent<Update>)
      .listen((event) => {
        if (live && latest.current.kinds.includes(event.payload.kind)) fetchNow();
      })
      .then(
        (unlisten) => {
          if (!live) return unlisten();
          stop = unlisten;
          refetch.current = fetchNow;
          fetchNow();
        },
        // Nothing to listen to: fetched once all the same.
        () => live && fetchNow(),
      );
    return () => {
      live = false;
      refetch.current = () => {};
      stop?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useHostResync(() => refetch.current());
  return { data, error, refresh: () => refetch.current() };
}

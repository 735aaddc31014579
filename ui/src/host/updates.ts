import { useEffect, useRef, useState } from "react";
import { events, type Update_Serialize as Update } from "../bindings";

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
  useHostEvent(events.hostUpdate, onUpdate);
}

/** Calls `onShow` with the request whose dialog the person asked for from outside the
 * window: its desktop notification, or the tray's menu. */
export function useShowRequest(onShow: (id: number) => void): void {
  useHostEvent(events.showRequest, ({ id }) => onShow(id));
}

/**
 * Calls `onResync` when the host says the window missed some of its updates: whatever the
 * window holds from them may be stale, and is to be fetched again.
 */
export function useHostResync(onResync: () => void): void {
  useHostEvent(events.hostResync, onResync);
}

/** What one run of `useListenThenFetch` does with the updates it hears and how it fetches. */
export interface FetchRun {
  heard(update: Update): void;
  fetch(): void;
}

/**
 * Listens to the host's updates, and only then fetches: a change announced in between (a
 * server that became ready as a view opened) is in the answer, not lost. Starts a new run
 * (`start`, told how to know it is still the current one) when `deps` change, fetches again
 * when the host says updates were lost, and returns a way to fetch again by hand.
 */
export function useListenThenFetch(start: (current: () => boolean) => FetchRun, deps: readonly unknown[]): () => void {
  const refetch = useRef<() => void>(() => {});
  useEffect(() => {
    let live = true;
    let stop: (() => void) | null = null;
    const run = start(() => live);
    events.hostUpdate
      .listen((event) => live && run.heard(event.payload))
      .then(
        (unlisten) => {
          if (!live) return unlisten();
          stop = unlisten;
          refetch.current = run.fetch;
          run.fetch();
        },
        // Nothing to listen to: fetched once all the same.
        () => live && run.fetch(),
      );
    return () => {
      live = false;
      refetch.current = () => {};
      stop?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useHostResync(() => refetch.current());
  return () => refetch.current();
}

/**
 * Data fetched from the host (see `useListenThenFetch`), fetched again whenever an update
 * of one of `kinds` arrives (updates say what changed; the host stays the one source of
 * truth). Only the newest fetch's answer is kept.
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
  const refresh = useListenThenFetch((current) => {
    let round = 0;
    const fetchNow = () => {
      const mine = ++round;
      const newest = () => current() && mine === round;
      latest.current.fetch().then(
        (value) => {
          if (!newest()) return;
          setData(value);
          setError(null);
        },
        (err: unknown) => newest() && setError(err),
      );
    };
    return { heard: (update) => latest.current.kinds.includes(update.kind) && fetchNow(), fetch: fetchNow };
  }, deps);
  return { data, error, refresh };
}

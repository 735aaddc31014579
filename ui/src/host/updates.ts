import { useEffect, useRef, useState } from "react";
import { events, type Update } from "../bindings";

type Kind = Update["kind"];

/** Calls `onUpdate` for each change the host announces, while the component lives. */
export function useHostUpdates(onUpdate: (update: Update) => void): void {
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    events.hostUpdate
      .listen((event) => latest.current(event.payload as Update))
      .then(
        (unlisten) => (live ? (stop = unlisten) : unlisten()),
        () => {},
      );
    return () => {
      live = false;
      stop?.();
    };
  }, []);
}

/**
 * Data fetched from the host, fetched again whenever an update of one of `kinds` arrives
 * (updates say what changed; the host stays the one source of truth).
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
  return { data, error, refresh };
}

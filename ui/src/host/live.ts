import { useRef, useState } from "react";
import type { Update_Serialize as Update } from "../bindings";
import { useWindowReturn } from "../windowReturn";
import { useListenThenFetch } from "./updates";

/** Where some state lives in the host, and how the host's updates change it. */
export interface LiveSource<S, C> {
  fetch(): Promise<S>;
  /** The change an update makes to the state, or null for an update about something else. */
  change(update: Update): C | null;
  apply(state: S, change: C): S;
  /**
   * The fetched state with the changes heard while it was fetched (the answer may be older
   * than they are); by default each is applied to it, which suits changes that set or
   * remove by key. Changes that add must leave out those the answer holds already.
   */
  settle?(fetched: S, heard: C[]): S;
}

/**
 * State fetched from the host and kept live by its updates. The host is listened to before
 * the state is fetched, so nothing that happens in between is lost; and it is fetched again
 * whenever updates may have been missed (the host says so, or the window comes back to
 * the front). `deps` name what the source depends on.
 */
export function useLive<S, C>(source: LiveSource<S, C>, initial: S, deps: readonly unknown[] = []): [S, (next: S) => void] {
  const [state, setState] = useState(initial);
  const first = useRef(initial);
  const latest = useRef(source);
  latest.current = source;
  const refetch = useListenThenFetch((current) => {
    // Another source (another server's log, say) starts from nothing, not from the last one's.
    setState(first.current);
    // The changes heard while a fetch is under way (null when none is), and which fetch.
    let heard: C[] | null = null;
    let round = 0;
    return {
      heard: (update) => {
        const change = latest.current.change(update);
        if (change === null) return;
        heard?.push(change);
        setState((state) => latest.current.apply(state, change));
      },
      fetch: () => {
        const mine = ++round;
        heard = [];
        const done = (fetched: S | null) => {
          if (!current() || mine !== round) return;
          const since = heard ?? [];
          heard = null;
          if (fetched === null) return;
          const { settle, apply } = latest.current;
          setState(settle ? settle(fetched, since) : since.reduce(apply, fetched));
        };
        latest.current.fetch().then(done, () => done(null));
      },
    };
  }, deps);
  useWindowReturn(refetch);
  return [state, setState];
}

import { createContext, useCallback, useContext, useState, useSyncExternalStore, type ReactNode } from "react";
import { useHostUpdates } from "../host/updates";

type SetKept<T> = (next: T | ((previous: T) => T)) => void;

/**
 * What the explorer shows, kept above the views so that it outlives them: the item chosen,
 * each item's form, the call under way with its progress, and its result. A call's answer
 * lands here even when the person is looking at another view.
 */
export class ExplorerStore {
  private values = new Map<string, unknown>();
  private listeners = new Set<() => void>();

  get<T>(key: string, initial: () => T): T {
    if (!this.values.has(key)) this.values.set(key, initial());
    return this.values.get(key) as T;
  }

  set<T>(key: string, next: T | ((previous: T) => T), initial: () => T): void {
    const previous = this.get(key, initial);
    const value = typeof next === "function" ? (next as (previous: T) => T)(previous) : next;
    if (Object.is(value, previous)) return;
    this.values.set(key, value);
    this.listeners.forEach((listener) => listener());
  }

  forget(key: string): void {
    this.values.delete(key);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const StoreContext = createContext<ExplorerStore>(new ExplorerStore());

/** The progress the host reports for a call, by its token. */
export const progressKey = (token: string) => `progress:${token}`;

export interface CallProgressKept {
  progress: number;
  total?: number;
  message?: string;
}

/** Holds the explorer's store for the whole window, and the progress of its calls. */
export function ExplorerStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new ExplorerStore());
  useHostUpdates((update) => {
    if (update.kind === "progress_ended") store.forget(progressKey(update.token));
    if (update.kind !== "progress" || !update.item.token.startsWith("explorer-")) return;
    const { progress, total, message } = update.item;
    const kept: CallProgressKept = {
      progress: progress ?? 0,
      ...(total != null ? { total } : {}),
      ...(message != null ? { message } : {}),
    };
    store.set(progressKey(update.item.token), kept, () => null);
  });
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The explorer's store itself, for a change made on another item's behalf. */
export function useKeptStore(): ExplorerStore {
  return useContext(StoreContext);
}

/** Like `useState`, kept in the explorer's store under `key`: it outlives the component. */
export function useKept<T>(key: string, initial: T | (() => T)): [T, SetKept<T>] {
  const store = useContext(StoreContext);
  const first = useCallback(
    () => (typeof initial === "function" ? (initial as () => T)() : initial),
    // The initial value counts only the first time the key is seen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  const value = useSyncExternalStore(store.subscribe, () => store.get(key, first));
  const set = useCallback<SetKept<T>>((next) => store.set(key, next, first), [store, key, first]);
  return [value, set];
}

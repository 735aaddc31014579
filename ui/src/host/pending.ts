import { useCallback, useEffect, useRef, useState } from "react";
import { commands, type Pending, type Update } from "../bindings";
import { useWindowReturn } from "../windowReturn";
import { useHostResync, useHostUpdates } from "./updates";

type Change = Extract<Update, { kind: "approval_added" | "approval_removed" }>;

function isChange(update: Update): update is Change {
  return update.kind === "approval_added" || update.kind === "approval_removed";
}

/** When the window first heard of each request, by id: how long it has waited, as shown. */
const heard = new Map<number, number>();

function hear(list: Pending[]): Pending[] {
  const now = Date.now();
  for (const p of list) if (p.id !== null && !heard.has(p.id)) heard.set(p.id, now);
  return list;
}

/** Since when the request has waited for the person, as far as the window knows. */
export function waitingSince(pending: Pending): number {
  return (pending.id !== null ? heard.get(pending.id) : undefined) ?? Date.now();
}

function apply(list: Pending[], change: Change): Pending[] {
  if (change.kind === "approval_removed") return list.filter((p) => p.id !== change.id);
  const added = change.pending as Pending;
  return list.some((p) => p.id === added.id) ? list : [...list, added];
}

/**
 * The requests waiting for the person, oldest first, kept live: fetched from the host, then
 * followed through its updates, and fetched again whenever those may have been missed (the
 * host says updates were lost, or the window comes back to the front).
 */
export function usePending(): Pending[] {
  const [pending, setPending] = useState<Pending[]>([]);
  // The changes announced while a fetch is under way: its answer may be older than they are.
  const unsettled = useRef<Change[] | null>(null);
  const round = useRef(0);

  const fetchAll = useCallback(() => {
    const mine = ++round.current;
    unsettled.current = [];
    commands.pendingApprovals().then(
      (fresh) => {
        if (mine !== round.current) return;
        const since = unsettled.current ?? [];
        unsettled.current = null;
        setPending(hear(since.reduce(apply, fresh)));
      },
      // The list stays as the updates left it.
      () => {
        if (mine === round.current) unsettled.current = null;
      },
    );
  }, []);

  useEffect(() => {
    fetchAll();
    return () => {
      round.current++;
    };
  }, [fetchAll]);
  useHostUpdates((update) => {
    if (!isChange(update)) return;
    unsettled.current?.push(update);
    setPending((list) => hear(apply(list, update)));
  });
  useHostResync(fetchAll);
  useWindowReturn(fetchAll);
  return pending;
}

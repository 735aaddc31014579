import { useCallback, useEffect, useRef, useState } from "react";
import { commands, type Pending, type Update } from "../bindings";
import { useWindowReturn } from "../windowReturn";
import { useHostResync, useHostUpdates } from "./updates";

type Change = Extract<Update, { kind: "approval_added" | "approval_removed" }>;

function isChange(update: Update): update is Change {
  return update.kind === "approval_added" || update.kind === "approval_removed";
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
        setPending(since.reduce(apply, fresh));
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
    setPending((list) => apply(list, update));
  });
  useHostResync(fetchAll);
  useWindowReturn(fetchAll);
  return pending;
}

import { useCallback, useEffect, useRef, useState } from "react";
import { commands, type ProgressItem as HostProgress, type Update } from "../bindings";
import { useHostResync, useHostUpdates } from "../host/updates";
import { useWindowReturn } from "../windowReturn";
import type { ProgressItem } from "../servers/types";

type Change = Extract<Update, { kind: "progress" | "progress_ended" }>;

function isChange(update: Update): update is Change {
  return update.kind === "progress" || update.kind === "progress_ended";
}

function apply(calls: Map<string, ProgressItem>, change: Change): Map<string, ProgressItem> {
  const next = new Map(calls);
  if (change.kind === "progress_ended") next.delete(change.token);
  else next.set(change.item.token, change.item as HostProgress as ProgressItem);
  return next;
}

/**
 * The calls under way, oldest first, kept live: what the host has in flight when the view
 * opens (a call that sends no progress, or waits for a decision, included), then followed
 * through its updates, and fetched again whenever those may have been missed.
 */
export function useCallsInFlight(): ProgressItem[] {
  const [calls, setCalls] = useState<Map<string, ProgressItem>>(new Map());
  // The changes announced while a fetch is under way: its answer may be older than they are.
  const unsettled = useRef<Change[] | null>(null);
  const round = useRef(0);

  const fetchAll = useCallback(() => {
    const mine = ++round.current;
    unsettled.current = [];
    commands.callsInFlight().then(
      (fresh) => {
        if (mine !== round.current) return;
        const since = unsettled.current ?? [];
        unsettled.current = null;
        const listed = new Map(fresh.map((item) => [item.token, item as HostProgress as ProgressItem]));
        setCalls(since.reduce(apply, listed));
      },
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
    setCalls((calls) => apply(calls, update));
  });
  useHostResync(fetchAll);
  useWindowReturn(fetchAll);
  return [...calls.values()].sort((a, b) => a.started_ms - b.started_ms);
}

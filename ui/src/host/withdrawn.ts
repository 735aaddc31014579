import { useEffect, useRef, useState } from "react";
import type { Pending_Serialize as Pending } from "../bindings";
import { useHostUpdates } from "./updates";

/**
 * The requests that waited in the queue (no one's action brought them forward) until
 * whoever asked withdrew them unanswered, oldest first, kept until the person has read of
 * them: else a request put aside with "Later" would vanish without a word. `pending` is the
 * list as the window shows it.
 */
export function useWithdrawn(pending: Pending[]): [Pending[], () => void] {
  const [withdrawn, setWithdrawn] = useState<Pending[]>([]);
  // Every queued request the window has shown, by id, until it leaves.
  const shown = useRef(new Map<number, Pending>());
  useEffect(() => {
    for (const p of pending) if (!p.forward) shown.current.set(p.id, p);
  }, [pending]);
  useHostUpdates((update) => {
    if (update.kind !== "approval_removed") return;
    const gone = shown.current.get(update.id);
    shown.current.delete(update.id);
    if (gone && update.withdrawn) setWithdrawn((list) => [...list, gone]);
  });
  return [withdrawn, () => setWithdrawn([])];
}

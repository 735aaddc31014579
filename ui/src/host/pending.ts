import { useState } from "react";
import { commands, type Pending } from "../bindings";
import { useFetched, useHostUpdates } from "./updates";

/** The requests waiting for the person, oldest first, kept live. */
export function usePending(): Pending[] {
  const { data } = useFetched(() => commands.pendingApprovals(), []);
  const [added, setAdded] = useState<Pending[]>([]);
  const [removed, setRemoved] = useState<Set<number>>(new Set());
  useHostUpdates((update) => {
    if (update.kind === "approval_added") setAdded((list) => [...list, update.pending as Pending]);
    if (update.kind === "approval_removed") setRemoved((gone) => new Set(gone).add(update.id as number));
  });
  const seen = new Set<number>();
  return [...(data ?? []), ...added].filter((p) => {
    const id = p.id as number;
    if (seen.has(id) || removed.has(id)) return false;
    seen.add(id);
    return true;
  });
}

import { commands, type Pending_Serialize as Pending, type Update_Serialize as Update } from "../bindings";
import { useLive } from "./live";

type Change = Extract<Update, { kind: "approval_added" | "approval_removed" }>;

/** When the window first heard of each request, by id: how long it has waited, as shown. */
const heard = new Map<number, number>();

function hear(list: Pending[]): Pending[] {
  const now = Date.now();
  for (const p of list) if (!heard.has(p.id)) heard.set(p.id, now);
  return list;
}

/** Since when the request has waited for the person, as far as the window knows. */
export function waitingSince(pending: Pending): number {
  return heard.get(pending.id) ?? Date.now();
}

function apply(list: Pending[], change: Change): Pending[] {
  if (change.kind === "approval_removed") return hear(list.filter((p) => p.id !== change.id));
  const added = change.pending;
  return hear(list.some((p) => p.id === added.id) ? list : [...list, added]);
}

/** The requests waiting for the person, oldest first, kept live (see `useLive`). */
export function usePending(): Pending[] {
  const [pending] = useLive<Pending[], Change>(
    {
      fetch: () => commands.pendingApprovals().then((list) => hear(list)),
      change: (update) => (update.kind === "approval_added" || update.kind === "approval_removed" ? update : null),
      apply,
    },
    [],
  );
  return pending;
}

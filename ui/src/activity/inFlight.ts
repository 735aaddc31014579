import { commands, type ProgressItem_Serialize as ProgressItem, type Update_Serialize as Update } from "../bindings";
import { useLive } from "../host/live";

type Change = Extract<Update, { kind: "progress" | "progress_ended" }>;

function apply(calls: Map<string, ProgressItem>, change: Change): Map<string, ProgressItem> {
  const next = new Map(calls);
  if (change.kind === "progress_ended") next.delete(change.token);
  else next.set(change.item.token, change.item);
  return next;
}

/**
 * The calls under way, oldest first, kept live (see `useLive`): what the host has in flight
 * when the view opens (a call that sends no progress, or waits for a decision, included),
 * then followed through its updates.
 */
export function useCallsInFlight(): ProgressItem[] {
  const [calls] = useLive<Map<string, ProgressItem>, Change>(
    {
      fetch: () => commands.callsInFlight().then((fresh) => new Map(fresh.map((item) => [item.token, item]))),
      change: (update) => (update.kind === "progress" || update.kind === "progress_ended" ? update : null),
      apply,
    },
    new Map(),
  );
  return [...calls.values()].sort((a, b) => a.startedMs - b.startedMs);
}

import { EmptyState } from "./EmptyState";

export function ActivityView() {
  return (
    <EmptyState title="No activity yet">
      Tool calls, their progress and every decision are recorded here.
    </EmptyState>
  );
}

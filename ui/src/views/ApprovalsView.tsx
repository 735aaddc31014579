import { EmptyState } from "./EmptyState";

export function ApprovalsView() {
  return (
    <EmptyState title="Nothing waits for you">
      When a server asks to run a tool, sample a model, see your folders or fill a form, the
      request waits here until you decide.
    </EmptyState>
  );
}

import { EmptyState } from "./EmptyState";

export function ExplorerView() {
  return (
    <EmptyState title="Nothing to explore yet">
      Once a server is running, its tools, resources and prompts are listed here.
    </EmptyState>
  );
}

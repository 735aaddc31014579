import { EmptyState } from "./EmptyState";

export function ServersView() {
  return (
    <EmptyState title="No servers connected">
      Servers listed in your configuration file appear here with their live status.
    </EmptyState>
  );
}

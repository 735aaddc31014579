import type { Tool } from "../mcp/schema";

/**
 * The `ui://` resource of a tool's view (MCP Apps), from its `_meta.ui.resourceUri` or the
 * older `_meta["ui/resourceUri"]`; null when it has none.
 */
export function viewOf(tool: Tool): string | null {
  const meta = (tool as { _meta?: Record<string, unknown> })._meta;
  const ui = meta?.ui as { resourceUri?: unknown } | undefined;
  const uri = ui?.resourceUri ?? meta?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : null;
}

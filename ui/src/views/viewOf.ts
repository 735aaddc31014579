import type { Tool } from "../mcp/schema";

/** A tool with a view, and the view's `ui://` resource. */
export interface ToolView {
  tool: Tool;
  uri: string;
}

/** The tools with a view among every server's offer, by server and tool name. */
export function toolViews(catalog: Record<string, { tools?: unknown }>): (server: string, tool: string) => ToolView | null {
  const found = new Map<string, ToolView>();
  for (const [server, offer] of Object.entries(catalog)) {
    for (const tool of Array.isArray(offer.tools) ? (offer.tools as Tool[]) : []) {
      const uri = viewOf(tool);
      if (uri) found.set(`${server}\u0000${tool.name}`, { tool, uri });
    }
  }
  return (server, tool) => found.get(`${server}\u0000${tool}`) ?? null;
}

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

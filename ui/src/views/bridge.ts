import type { CallToolResult, Tool } from "../mcp/schema";

/** The revision of MCP Apps' messages this host speaks. */
export const APPS_PROTOCOL = "2026-01-26";

/** The tallest a view may make itself inline, in pixels; it scrolls past that. */
export const MOST_HEIGHT = 800;

/** What the host does for a view, as the bridge asks it. */
export interface BridgeHost {
  /** Sends a message to the view. */
  post(message: unknown): void;
  /** The view asks to be this many pixels high. */
  resize(height: number): void;
  /** Reads a resource of the view's own server (the only one it may read). */
  readResource(uri: string): Promise<unknown>;
  /** Calls a tool of the view's own server, through the gate as the app's. */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
}

/** The tool call a view was opened for. */
export interface ViewCall {
  tool: Tool;
  arguments: Record<string, unknown>;
}

type Id = string | number;

interface Message {
  jsonrpc: "2.0";
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
}

function isMessage(data: unknown): data is Message {
  return typeof data === "object" && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

const INVALID = -32602;
const NOT_FOUND = -32601;
const FAILED = -32603;

/** `work`'s outcome, its failure as a JSON-RPC error in the host's words. */
async function failing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw { code: FAILED, message: String((err as { message?: unknown })?.message ?? err) };
  }
}

/**
 * The host's side of MCP Apps' messages with one view (JSON-RPC over `postMessage`):
 * `ui/initialize` answered with the host's context, the tool's input and then its result
 * sent once the view is ready, its size followed, its reads of its own server's resources
 * and its calls of its own server's tools made (each call through the gate, as the app's).
 * What this host does not do for views yet (opening links, downloads, writing to the
 * conversation) is refused with an error that says so, never left unanswered.
 */
export class Bridge {
  private ready = false;
  private result: CallToolResult | null = null;

  constructor(
    private readonly host: BridgeHost,
    private readonly call: ViewCall,
    private readonly context: Record<string, unknown>,
  ) {}

  /** The tool's result, sent now if the view is ready, else once it is. */
  toolResult(result: CallToolResult) {
    this.result = result;
    if (this.ready) this.notify("ui/notifications/tool-result", result);
  }

  /** A message from the view. */
  receive(data: unknown) {
    if (!isMessage(data) || typeof data.method !== "string") return;
    if (data.id === undefined) {
      this.notification(data.method, data.params ?? {});
      return;
    }
    const id = data.id;
    void this.request(data.method, data.params ?? {}).then(
      (result) => this.host.post({ jsonrpc: "2.0", id, result }),
      (error: { code: number; message: string }) => this.host.post({ jsonrpc: "2.0", id, error }),
    );
  }

  private notification(method: string, params: Record<string, unknown>) {
    switch (method) {
      case "ui/notifications/initialized":
        this.ready = true;
        this.notify("ui/notifications/tool-input", { arguments: this.call.arguments });
        if (this.result) this.notify("ui/notifications/tool-result", this.result);
        return;
      case "ui/notifications/size-changed": {
        const height = params.height;
        if (typeof height === "number" && Number.isFinite(height)) {
          this.host.resize(Math.min(Math.max(Math.ceil(height), 1), MOST_HEIGHT));
        }
        return;
      }
    }
  }

  private async request(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "ui/initialize":
        return {
          protocolVersion: APPS_PROTOCOL,
          hostInfo: { name: "Switchboard", version: String(this.context.version ?? "") },
          hostCapabilities: { serverResources: {} },
          hostContext: {
            ...this.context,
            toolInfo: { tool: this.call.tool },
            displayMode: "inline",
            availableDisplayModes: ["inline"],
          },
        };
      case "ping":
        return {};
      case "ui/request-display-mode":
        return { mode: "inline" };
      case "resources/read": {
        const uri = params.uri;
        if (typeof uri !== "string") throw { code: INVALID, message: "resources/read needs a uri" };
        return await failing(this.host.readResource(uri));
      }
      case "tools/call": {
        const { name, arguments: args } = params;
        if (typeof name !== "string") throw { code: INVALID, message: "tools/call needs the tool's name" };
        const given = typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
        return await failing(this.host.callTool(name, given));
      }
      case "ui/open-link":
      case "ui/download-file":
      case "ui/message":
      case "ui/update-model-context":
        throw { code: NOT_FOUND, message: `Switchboard does not ${UNDONE[method]} for a view yet` };
      default:
        throw { code: NOT_FOUND, message: `${method} is not a method Switchboard answers for a view` };
    }
  }

  private notify(method: string, params: unknown) {
    this.host.post({ jsonrpc: "2.0", method, params });
  }
}

const UNDONE: Record<string, string> = {
  "ui/open-link": "open links",
  "ui/download-file": "download files",
  "ui/message": "write to the conversation",
  "ui/update-model-context": "tell the model",
};

import type { CallToolResult, ContentBlock, EmbeddedResource, ResourceLink, Tool } from "../mcp/schema";

/** The revision of MCP Apps' messages this host speaks. */
export const APPS_PROTOCOL = "2026-01-26";

/** The tallest a view may make itself inline, in pixels; it scrolls past that. */
export const MOST_HEIGHT = 800;

/** How long a view is given to tidy up when it is closed, in milliseconds. */
export const TEARDOWN_MS = 1000;

export type DisplayMode = "inline" | "fullscreen";
export const DISPLAY_MODES: DisplayMode[] = ["inline", "fullscreen"];

/** A file a view asks to save: its content given, or a resource of its server to read. */
export type Downloadable = EmbeddedResource | ResourceLink;

/** What the model is told of a view's state, sent with the conversation's next message. */
export interface ModelContext {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}

/** The conversation a view lives in. */
export interface Conversation {
  /** The view's message, sent into the conversation as the app's. */
  message(content: ContentBlock[]): Promise<void>;
  /** What the model is told of the view, in place of what it was last told. */
  context(update: ModelContext): Promise<void>;
}

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
  /** The view asks to be shown so; the mode the host shows it in. */
  requestDisplayMode(mode: DisplayMode): DisplayMode;
  /** The person is asked to open a web address (already checked to be one); whether it was opened. */
  openLink(url: string): Promise<boolean>;
  /** The person is asked to save files; whether they were saved. */
  download(contents: Downloadable[]): Promise<boolean>;
  /** The conversation the view lives in; absent outside one. */
  conversation?: Conversation | undefined;
  /** The view asks to be closed; absent where it is not the view's to close. */
  close?: (() => void) | undefined;
}

/** The tool call a view was opened for; no arguments when it was opened without one. */
export interface ViewCall {
  tool: Tool;
  arguments: Record<string, unknown> | null;
}

type Id = string | number;

interface Message {
  jsonrpc: "2.0";
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

function isMessage(data: unknown): data is Message {
  return typeof data === "object" && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const INVALID = -32602;
const NOT_FOUND = -32601;
const FAILED = -32603;

const refuse = (code: number, message: string) => ({ code, message });

/** `work`'s outcome, its failure as a JSON-RPC error in the host's words. */
async function failing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw refuse(FAILED, String((err as { message?: unknown })?.message ?? err));
  }
}

/** The address a view may ask to open: a web page's, whole; the reason otherwise. */
export function webAddress(url: unknown): { url: string } | { refused: string } {
  if (typeof url !== "string") return { refused: "ui/open-link needs a url" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: `${url} is not an address` };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return { refused: `only web addresses (http, https) may be opened, and ${parsed.protocol}… is not one` };
  return { url: parsed.href };
}

/** The files of a `ui/download-file`, each checked to be one; the reason otherwise. */
export function downloadables(contents: unknown): { files: Downloadable[] } | { refused: string } {
  if (!Array.isArray(contents) || contents.length === 0) return { refused: "ui/download-file needs contents" };
  for (const item of contents) {
    const ok =
      isRecord(item) &&
      ((item.type === "resource" && isRecord(item.resource) && typeof item.resource.uri === "string") ||
        (item.type === "resource_link" && typeof item.uri === "string"));
    if (!ok) return { refused: "each file of ui/download-file is an embedded resource or a resource link" };
  }
  return { files: contents as Downloadable[] };
}

/**
 * The host's side of MCP Apps' messages with one view (JSON-RPC over `postMessage`):
 * `ui/initialize` answered with the host's context, the tool's input (partial while a model
 * writes it) and then its result or its cancellation sent once the view is ready, its size
 * and display mode followed, its reads of its own server's resources and its calls of its
 * own server's tools made (each call through the gate, as the app's), its links and files
 * offered to the person, its messages and context given to the conversation it lives in.
 * What it may not do where it is (write to a conversation outside one) is refused with an
 * error that says so, never left unanswered.
 */
export class Bridge {
  private ready = false;
  private input: Record<string, unknown> | null;
  private partial: Record<string, unknown> | null = null;
  private result: CallToolResult | null = null;
  private cancelled: string | null = null;
  private asked = 0;
  private readonly answers = new Map<Id, () => void>();

  constructor(
    private readonly host: BridgeHost,
    private readonly call: ViewCall,
    private context: Record<string, unknown>,
  ) {
    this.input = call.arguments;
  }

  /** The arguments as a model writes them, sent while the whole are not yet known. */
  toolInputPartial(args: Record<string, unknown>) {
    if (this.input !== null) return;
    this.partial = args;
    if (this.ready) this.notify("ui/notifications/tool-input-partial", { arguments: args });
  }

  /** The call's whole arguments, once known. */
  toolInput(args: Record<string, unknown>) {
    if (this.input !== null) return;
    this.input = args;
    if (this.ready) this.notify("ui/notifications/tool-input", { arguments: args });
  }

  /** The tool's result, sent now if the view is ready, else once it is. */
  toolResult(result: CallToolResult) {
    if (this.result === result) return;
    this.result = result;
    if (this.ready) this.notify("ui/notifications/tool-result", result);
  }

  /** The call will have no result: denied, failed, stopped. */
  toolCancelled(reason: string) {
    if (this.cancelled !== null || this.result !== null) return;
    this.cancelled = reason;
    if (this.ready) this.notify("ui/notifications/tool-cancelled", { reason });
  }

  /** What changed of the host's context (display mode, size, theme). */
  contextChanged(changed: Record<string, unknown>) {
    // Kept, for a view that asks again (`ui/initialize` once more).
    this.context = { ...this.context, ...changed };
    if (this.ready) this.notify("ui/notifications/host-context-changed", changed);
  }

  /** Asks the view to tidy up before it goes; settles when it has, or after {@link TEARDOWN_MS}. */
  teardown(): Promise<void> {
    if (!this.ready) return Promise.resolve();
    const id = `teardown-${++this.asked}`;
    return new Promise((done) => {
      const timer = setTimeout(() => settle(), TEARDOWN_MS);
      const settle = () => {
        clearTimeout(timer);
        this.answers.delete(id);
        done();
      };
      this.answers.set(id, settle);
      this.host.post({ jsonrpc: "2.0", id, method: "ui/resource-teardown", params: {} });
    });
  }

  /** A message from the view. */
  receive(data: unknown) {
    if (!isMessage(data)) return;
    if (typeof data.method !== "string") {
      // An answer to one of the host's requests.
      if (data.id !== undefined) this.answers.get(data.id)?.();
      return;
    }
    if (data.id === undefined) {
      this.notification(data.method, data.params ?? {});
      return;
    }
    const id = data.id;
    void this.request(data.method, isRecord(data.params) ? data.params : {}).then(
      (result) => this.host.post({ jsonrpc: "2.0", id, result }),
      (error: { code: number; message: string }) => this.host.post({ jsonrpc: "2.0", id, error }),
    );
  }

  private notification(method: string, params: Record<string, unknown>) {
    switch (method) {
      case "ui/notifications/initialized":
        this.ready = true;
        if (this.input !== null) this.notify("ui/notifications/tool-input", { arguments: this.input });
        else if (this.partial !== null) this.notify("ui/notifications/tool-input-partial", { arguments: this.partial });
        if (this.result) this.notify("ui/notifications/tool-result", this.result);
        else if (this.cancelled !== null) this.notify("ui/notifications/tool-cancelled", { reason: this.cancelled });
        return;
      case "ui/notifications/size-changed": {
        const height = params.height;
        if (typeof height === "number" && Number.isFinite(height)) {
          this.host.resize(Math.min(Math.max(Math.ceil(height), 1), MOST_HEIGHT));
        }
        return;
      }
      case "ui/notifications/request-teardown":
        this.host.close?.();
        return;
    }
  }

  private async request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const conversation = this.host.conversation;
    switch (method) {
      case "ui/initialize":
        return {
          protocolVersion: APPS_PROTOCOL,
          hostInfo: { name: "Switchboard", version: String(this.context.version ?? "") },
          hostCapabilities: {
            serverTools: {},
            serverResources: {},
            openLinks: {},
            downloadFile: {},
            ...(conversation ? { message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } } : {}),
          },
          hostContext: {
            ...this.context,
            toolInfo: { tool: this.call.tool },
            availableDisplayModes: DISPLAY_MODES,
          },
        };
      case "ping":
        return {};
      case "ui/request-display-mode": {
        const { mode } = params;
        if (mode !== "inline" && mode !== "fullscreen" && mode !== "pip")
          throw refuse(INVALID, "ui/request-display-mode needs a mode: inline, fullscreen or pip");
        // Picture-in-picture is not offered: such a view stays as it is shown.
        return { mode: mode === "pip" ? this.host.requestDisplayMode("inline") : this.host.requestDisplayMode(mode) };
      }
      case "resources/read": {
        const uri = params.uri;
        if (typeof uri !== "string") throw refuse(INVALID, "resources/read needs a uri");
        return await failing(this.host.readResource(uri));
      }
      case "tools/call": {
        const { name, arguments: args } = params;
        if (typeof name !== "string") throw refuse(INVALID, "tools/call needs the tool's name");
        return await failing(this.host.callTool(name, isRecord(args) ? args : {}));
      }
      case "ui/open-link": {
        const checked = webAddress(params.url);
        if ("refused" in checked) throw refuse(INVALID, checked.refused);
        return { isError: !(await failing(this.host.openLink(checked.url))) };
      }
      case "ui/download-file": {
        const checked = downloadables(params.contents);
        if ("refused" in checked) throw refuse(INVALID, checked.refused);
        return { isError: !(await failing(this.host.download(checked.files))) };
      }
      case "ui/message": {
        if (!conversation) throw refuse(NOT_FOUND, "this view is not in a conversation: there is none to write to");
        const content = params.content;
        if (params.role !== "user" || !Array.isArray(content)) throw refuse(INVALID, 'ui/message needs role "user" and content');
        await failing(conversation.message(content as ContentBlock[]));
        return {};
      }
      case "ui/update-model-context": {
        if (!conversation) throw refuse(NOT_FOUND, "this view is not in a conversation: there is no model to tell");
        const { content, structuredContent } = params;
        if (content !== undefined && !Array.isArray(content)) throw refuse(INVALID, "ui/update-model-context's content is a list of blocks");
        await failing(
          conversation.context({
            ...(Array.isArray(content) ? { content: content as ContentBlock[] } : {}),
            ...(isRecord(structuredContent) ? { structuredContent } : {}),
          }),
        );
        return {};
      }
      default:
        throw refuse(NOT_FOUND, `${method} is not a method Switchboard answers for a view`);
    }
  }

  private notify(method: string, params: unknown) {
    this.host.post({ jsonrpc: "2.0", method, params });
  }
}

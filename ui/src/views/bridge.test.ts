import { describe, expect, it, vi } from "vitest";
import type { CallToolResult, Tool } from "../mcp/schema";
import { APPS_PROTOCOL, Bridge, MOST_HEIGHT, TEARDOWN_MS, type Conversation } from "./bridge";

const tool = { name: "get-time", inputSchema: { type: "object" } } as Tool;
const result = { content: [{ type: "text", text: "12:00" }] } as CallToolResult;

function setup({ args = { zone: "UTC" } as Record<string, unknown> | null, conversation = undefined as Conversation | undefined } = {}) {
  const posted: unknown[] = [];
  const host = {
    requestDisplayMode: vi.fn((mode: string) => mode as "inline" | "fullscreen"),
    openLink: vi.fn(async (url: string) => !url.includes("declined")),
    download: vi.fn(async () => true),
    conversation,
    close: vi.fn(),
    post: (m: unknown) => posted.push(m),
    resize: vi.fn(),
    readResource: vi.fn(async (uri: string) => ({ contents: [{ uri, text: "hi" }] })),
    callTool: vi.fn(async (name: string) => {
      if (name === "refused") throw { message: "the call to refused of basic was denied by you" };
      return result;
    }),
  };
  const bridge = new Bridge(host, { tool, arguments: args }, { theme: "light", version: "0.1.0", displayMode: "inline" });
  return { bridge, host, posted };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

/** The host's answer to the view's request `id`. */
const answerTo = (posted: unknown[], id: number) => posted.find((m) => (m as { id?: unknown }).id === id) as { result?: Record<string, unknown>; error?: unknown };

describe("Bridge", () => {
  it("answers ui/initialize with the host's context, then sends the input and the result", async () => {
    const { bridge, posted } = setup();
    bridge.toolResult(result);
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: { protocolVersion: APPS_PROTOCOL } });
    await settled();
    expect(posted[0]).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: APPS_PROTOCOL,
        hostInfo: { name: "Switchboard", version: "0.1.0" },
        hostContext: { theme: "light", toolInfo: { tool }, displayMode: "inline" },
      },
    });
    expect(posted).toHaveLength(1);
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    expect(posted.slice(1)).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { zone: "UTC" } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result },
    ]);
  });

  it("sends a result that comes once the view is ready", () => {
    const { bridge, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    bridge.toolResult(result);
    expect(posted.at(-1)).toEqual({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result });
  });

  it("follows the view's size within bounds, and reads its own server's resources", async () => {
    const { bridge, host, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { height: 240.4 } });
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { height: 99999 } });
    expect(host.resize.mock.calls).toEqual([[241], [MOST_HEIGHT]]);
    bridge.receive({ jsonrpc: "2.0", id: "r", method: "resources/read", params: { uri: "ui://a/b" } });
    await settled();
    expect(host.readResource).toHaveBeenCalledWith("ui://a/b");
    expect(posted[0]).toEqual({ jsonrpc: "2.0", id: "r", result: { contents: [{ uri: "ui://a/b", text: "hi" }] } });
  });

  it("calls its own server's tools through the host, a refusal said as an error", async () => {
    const { bridge, host, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get-time", arguments: { a: 1 } } });
    bridge.receive({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "refused" } });
    bridge.receive({ jsonrpc: "2.0", id: 9, method: "tools/call", params: {} });
    await settled();
    expect(host.callTool).toHaveBeenCalledWith("get-time", { a: 1 });
    expect(posted).toEqual([
      { jsonrpc: "2.0", id: 9, error: { code: -32602, message: "tools/call needs the tool's name" } },
      { jsonrpc: "2.0", id: 7, result },
      { jsonrpc: "2.0", id: 8, error: { code: -32603, message: "the call to refused of basic was denied by you" } },
    ]);
  });

  it("ignores what is not JSON-RPC, and refuses a method it does not know", async () => {
    const { bridge, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", id: 4, method: "nothing/known" });
    bridge.receive("not a message");
    bridge.receive({ id: 5, method: "ui/initialize" });
    await settled();
    expect(posted).toEqual([{ jsonrpc: "2.0", id: 4, error: { code: -32601, message: "nothing/known is not a method Switchboard answers for a view" } }]);
  });

  it("opens only web addresses, and only as the person agrees", async () => {
    const { bridge, host, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/open-link", params: { url: "file:///etc/passwd" } });
    bridge.receive({ jsonrpc: "2.0", id: 2, method: "ui/open-link", params: { url: "javascript:alert(1)" } });
    bridge.receive({ jsonrpc: "2.0", id: 3, method: "ui/open-link", params: { url: "https://example.com/a" } });
    bridge.receive({ jsonrpc: "2.0", id: 4, method: "ui/open-link", params: { url: "https://example.com/declined" } });
    await settled();
    expect(host.openLink.mock.calls).toEqual([["https://example.com/a"], ["https://example.com/declined"]]);
    expect(posted).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "only web addresses (http, https) may be opened, and file:… is not one" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "only web addresses (http, https) may be opened, and javascript:… is not one" } },
      { jsonrpc: "2.0", id: 3, result: { isError: false } },
      { jsonrpc: "2.0", id: 4, result: { isError: true } },
    ]);
  });

  it("offers files to save only when each is a resource", async () => {
    const { bridge, host, posted } = setup();
    const file = { type: "resource", resource: { uri: "ui://basic/report.csv", mimeType: "text/csv", text: "a,b" } };
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/download-file", params: { contents: [file] } });
    bridge.receive({ jsonrpc: "2.0", id: 2, method: "ui/download-file", params: { contents: [{ type: "text", text: "x" }] } });
    await settled();
    expect(host.download).toHaveBeenCalledWith([file]);
    expect(posted).toEqual([
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "each file of ui/download-file is an embedded resource or a resource link" } },
      { jsonrpc: "2.0", id: 1, result: { isError: false } },
    ]);
  });

  it("writes to the conversation it lives in, and refuses to outside one", async () => {
    const message = { role: "user", content: [{ type: "text", text: "Explain this chart" }] };
    const context = { content: [{ type: "text", text: "The chart shows March" }], structuredContent: { month: 3 } };
    const outside = setup();
    outside.bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/message", params: message });
    outside.bridge.receive({ jsonrpc: "2.0", id: 2, method: "ui/update-model-context", params: context });
    outside.bridge.receive({ jsonrpc: "2.0", id: 3, method: "ui/initialize", params: {} });
    await settled();
    expect(answerTo(outside.posted, 1).error).toEqual({ code: -32601, message: "this view is not in a conversation: there is none to write to" });
    expect(answerTo(outside.posted, 2).error).toEqual({ code: -32601, message: "this view is not in a conversation: there is no model to tell" });
    expect(answerTo(outside.posted, 3).result?.hostCapabilities).not.toHaveProperty("message");

    const conversation = { message: vi.fn(async () => {}), context: vi.fn(async () => {}) };
    const inside = setup({ conversation });
    inside.bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/message", params: message });
    inside.bridge.receive({ jsonrpc: "2.0", id: 2, method: "ui/update-model-context", params: context });
    inside.bridge.receive({ jsonrpc: "2.0", id: 3, method: "ui/initialize", params: {} });
    await settled();
    expect(conversation.message).toHaveBeenCalledWith(message.content);
    expect(conversation.context).toHaveBeenCalledWith(context);
    expect(answerTo(inside.posted, 1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(answerTo(inside.posted, 2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(answerTo(inside.posted, 3).result?.hostCapabilities).toHaveProperty("message");
  });

  it("shows the view as it asks, picture-in-picture kept inline, and tells it what changed", async () => {
    const { bridge, host, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", id: 1, method: "ui/request-display-mode", params: { mode: "fullscreen" } });
    bridge.receive({ jsonrpc: "2.0", id: 2, method: "ui/request-display-mode", params: { mode: "pip" } });
    bridge.receive({ jsonrpc: "2.0", id: 3, method: "ui/request-display-mode", params: { mode: "huge" } });
    await settled();
    expect(host.requestDisplayMode.mock.calls).toEqual([["fullscreen"], ["inline"]]);
    expect(posted).toEqual([
      { jsonrpc: "2.0", id: 1, result: { mode: "fullscreen" } },
      { jsonrpc: "2.0", id: 2, result: { mode: "inline" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "ui/request-display-mode needs a mode: inline, fullscreen or pip" } },
    ]);
    posted.length = 0;
    bridge.contextChanged({ displayMode: "fullscreen" });
    expect(posted).toEqual([]);
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    bridge.contextChanged({ displayMode: "fullscreen" });
    expect(posted.at(-1)).toEqual({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { displayMode: "fullscreen" } });
  });

  it("sends the arguments as a model writes them, then whole, and a cancellation in place of a result", () => {
    const { bridge, posted } = setup({ args: null });
    bridge.toolInputPartial({ zone: "U" });
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    bridge.toolInputPartial({ zone: "UT" });
    bridge.toolInput({ zone: "UTC" });
    bridge.toolInputPartial({ zone: "late" });
    bridge.toolCancelled("denied by you");
    bridge.toolResult(result);
    expect(posted).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/tool-input-partial", params: { arguments: { zone: "U" } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-input-partial", params: { arguments: { zone: "UT" } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { zone: "UTC" } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: "denied by you" } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result },
    ]);
  });

  it("asks a ready view to tidy up before it goes, waiting a bounded time, and hears its wish to close", async () => {
    vi.useFakeTimers();
    try {
      const { bridge, host, posted } = setup();
      await bridge.teardown(); // not ready: nothing to ask
      expect(posted).toEqual([]);
      bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
      posted.length = 0;
      const answered = bridge.teardown();
      const request = posted[0] as { id: string; method: string };
      expect(request.method).toBe("ui/resource-teardown");
      bridge.receive({ jsonrpc: "2.0", id: request.id, result: {} });
      await answered;
      const silent = bridge.teardown();
      vi.advanceTimersByTime(TEARDOWN_MS);
      await silent;
      bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/request-teardown" });
      expect(host.close).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});

import { describe, expect, it, vi } from "vitest";
import type { CallToolResult, Tool } from "../mcp/schema";
import { APPS_PROTOCOL, Bridge, MOST_HEIGHT } from "./bridge";

const tool = { name: "get-time", inputSchema: { type: "object" } } as Tool;
const result = { content: [{ type: "text", text: "12:00" }] } as CallToolResult;

function setup() {
  const posted: unknown[] = [];
  const host = {
    post: (m: unknown) => posted.push(m),
    resize: vi.fn(),
    readResource: vi.fn(async (uri: string) => ({ contents: [{ uri, text: "hi" }] })),
    callTool: vi.fn(async (name: string) => {
      if (name === "refused") throw { message: "the call to refused of basic was denied by you" };
      return result;
    }),
  };
  const bridge = new Bridge(host, { tool, arguments: { zone: "UTC" } }, { theme: "light", version: "0.1.0" });
  return { bridge, host, posted };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

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

  it("refuses what it does not do with an error, and ignores what is not JSON-RPC", async () => {
    const { bridge, posted } = setup();
    bridge.receive({ jsonrpc: "2.0", id: 3, method: "ui/open-link", params: { url: "file:///etc/passwd" } });
    bridge.receive({ jsonrpc: "2.0", id: 4, method: "nothing/known" });
    bridge.receive("not a message");
    bridge.receive({ id: 5, method: "ui/initialize" });
    await settled();
    expect(posted).toEqual([
      { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Switchboard does not open links for a view yet" } },
      { jsonrpc: "2.0", id: 4, error: { code: -32601, message: "nothing/known is not a method Switchboard answers for a view" } },
    ]);
  });
});

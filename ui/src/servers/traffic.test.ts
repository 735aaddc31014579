import { afterEach, describe, expect, it } from "vitest";
import type { TrafficEntry_Serialize as TrafficEntry } from "../bindings";
import { formatBytes } from "../content/binary";
import { applyLanguage } from "../i18n";
import { appendTraffic, describeKind, filterTraffic, pairs, prettyJson } from "./traffic";

let seq = 0;
function message(over: Partial<TrafficEntry>): TrafficEntry {
  seq += 1;
  const json = over.json ?? JSON.stringify({ jsonrpc: "2.0", method: over.method ?? null });
  return {
    server: "demo",
    seq,
    direction: "sent",
    atMs: Date.UTC(2025, 10, 25, 12, 0, 0) + seq,
    bytes: json.length,
    kind: "request",
    method: null,
    id: null,
    requestSeq: null,
    elapsedMs: null,
    truncated: false,
    ...over,
    json,
  };
}

describe("traffic", () => {
  const list = message({ method: "tools/list", id: "1" });
  const listed = message({ direction: "received", kind: "response", method: "tools/list", id: "1", requestSeq: list.seq, elapsedMs: 4 });
  const call = message({ method: "tools/call", id: "2", json: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}' });
  const note = message({ direction: "received", kind: "notification", method: "notifications/progress" });
  const called = message({ direction: "received", kind: "error", method: "tools/call", id: "2", requestSeq: call.seq, elapsedMs: 9 });
  const all = [list, listed, call, note, called];

  it("filters by method or text and by direction; a response goes with its request's method", () => {
    expect(filterTraffic(all, { text: "TOOLS/CALL", direction: "all" })).toEqual([call, called]);
    expect(filterTraffic(all, { text: "tools/call", direction: "received" })).toEqual([called]);
    expect(filterTraffic(all, { text: "echo", direction: "all" })).toEqual([call]);
    expect(filterTraffic(all, { text: " ", direction: "sent" })).toEqual([list, call]);
  });

  it("pairs each request with its response both ways, when both are kept", () => {
    const partner = pairs(all);
    expect(partner.get(list.seq)).toBe(listed.seq);
    expect(partner.get(listed.seq)).toBe(list.seq);
    expect(partner.get(call.seq)).toBe(called.seq);
    expect(partner.has(note.seq)).toBe(false);
    // The request dropped: its response stands alone.
    expect(pairs([listed, call]).size).toBe(0);
  });

  it("keeps the newest within its count and size, counting what it drops, and ignores repeats", () => {
    let state = { entries: [list, listed], dropped: 3 };
    state = appendTraffic(state, call, { messages: 2, chars: 1_000_000 });
    expect(state).toEqual({ entries: [listed, call], dropped: 4 });
    expect(appendTraffic(state, listed, { messages: 2, chars: 1_000_000 })).toBe(state);
    const big = message({ json: "x".repeat(500) });
    state = appendTraffic(state, big, { messages: 10, chars: 520 });
    expect(state.entries).toEqual([big]);
    expect(state.dropped).toBe(6);
  });

  it("indents JSON and leaves a cut message as it is", () => {
    expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson('{"a":[1')).toBe('{"a":[1');
    expect([formatBytes(512), formatBytes(1536), formatBytes(3 * 1024 * 1024)]).toEqual(["512 bytes", "1.5 KB", "3.0 MB"]);
  });
});

describe("a message's kind in words", () => {
  afterEach(() => applyLanguage("en"));

  const kinds = ["request", "notification", "response", "error", "batch", "other"] as const;

  it("says what each message is, in the window's language when called", () => {
    expect(kinds.map((kind) => describeKind(message({ kind })))).toEqual([
      "request",
      "notification",
      "response",
      "error response",
      "batch",
      "unreadable",
    ]);
    applyLanguage("zh-CN");
    expect(kinds.map((kind) => describeKind(message({ kind })))).toEqual(["请求", "通知", "响应", "错误响应", "批量消息", "无法读取"]);
  });
});

import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TrafficPane, type TrafficPaneProps } from "./TrafficPane";
import type { TrafficEntry_Serialize as TrafficEntry } from "../bindings";
import { applyLanguage } from "../i18n";

afterEach(cleanup);

const at = (ms: number) => Date.UTC(2025, 10, 25, 12, 0, 0) + ms;
const entry = (seq: number, over: Partial<TrafficEntry>): TrafficEntry => ({
  server: "demo",
  seq,
  direction: "sent",
  atMs: at(seq * 10),
  bytes: (over.json ?? "").length,
  kind: "request",
  method: null,
  id: null,
  requestSeq: null,
  elapsedMs: null,
  json: "",
  truncated: false,
  ...over,
});
const entries: TrafficEntry[] = [
  entry(1, { method: "initialize", id: "1", json: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}' }),
  entry(2, { direction: "received", kind: "response", method: "initialize", id: "1", requestSeq: 1, elapsedMs: 12, json: '{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"demo"}}}' }),
  entry(3, { method: "tools/call", id: "2", json: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}' }),
  entry(4, { direction: "received", kind: "response", method: "tools/call", id: "2", requestSeq: 3, elapsedMs: 1500, json: '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}' }),
];

function setup(overrides: Partial<TrafficPaneProps> = {}) {
  const copy = vi.fn(() => Promise.resolve());
  const props: TrafficPaneProps = { entries, dropped: 0, missed: 0, headers: [], copy, ...overrides };
  render(<TrafficPane {...props} />);
  return { copy, user: userEvent.setup() };
}

const rows = () => within(screen.getByRole("region", { name: "Messages" })).queryAllByRole("listitem").filter((li) => li.classList.contains("traffic-entry"));
const methods = () => rows().map((li) => li.querySelector(".traffic-method")?.textContent);

describe("TrafficPane", () => {
  it("lists each message with its direction, method, id, size and the time its answer took", () => {
    setup();
    expect(methods()).toEqual(["initialize", "initialize", "tools/call", "tools/call"]);
    const [request, response] = rows() as [HTMLElement, HTMLElement];
    expect(within(request).getByLabelText("sent")).toBeTruthy();
    expect(request.textContent).toContain("id 1");
    expect(request.textContent).toContain("answered in 12 ms");
    expect(within(response).getByLabelText("received")).toBeTruthy();
    expect(response.textContent).toContain("in 12 ms");
    expect(rows()[3]!.textContent).toContain("in 1.5 s");
    expect(screen.getByText("4 of 4 messages")).toBeTruthy();
  });

  it("filters by method and by direction", async () => {
    const { user } = setup();
    await user.type(screen.getByRole("searchbox", { name: "Filter traffic" }), "tools/call");
    expect(methods()).toEqual(["tools/call", "tools/call"]);
    await user.selectOptions(screen.getByRole("combobox", { name: "Direction" }), "received");
    expect(rows().map((r) => r.getAttribute("data-seq"))).toEqual(["4"]);
    await user.clear(screen.getByRole("searchbox", { name: "Filter traffic" }));
    await user.type(screen.getByRole("searchbox", { name: "Filter traffic" }), "nothing like it");
    expect(screen.getByText("No message matches the filter.")).toBeTruthy();
  });

  it("opens a request with its response beside it, pretty-printed, and copies either", async () => {
    const { user, copy } = setup();
    await user.click(within(rows()[2]!).getByRole("button", { expanded: false }));
    const detail = rows()[2]!.querySelector(".traffic-detail") as HTMLElement;
    const shown = [...detail.querySelectorAll("pre")].map((pre) => pre.textContent);
    expect(shown[0]).toBe(JSON.stringify(JSON.parse(entries[2]!.json), null, 2));
    expect(shown[1]).toBe(JSON.stringify(JSON.parse(entries[3]!.json), null, 2));
    expect(detail.textContent).toContain("Its response, 1.5 s later:");
    const [copyRequest, copyResponse] = within(detail).getAllByRole("button", { name: "Copy JSON" });
    await user.click(copyResponse!);
    expect(copy).toHaveBeenLastCalledWith(shown[1]);
    await user.click(copyRequest!);
    expect(copy).toHaveBeenLastCalledWith(shown[0]);
    expect(await screen.findByText("Copied message 3.")).toBeTruthy();
  });

  it("says how many older messages were dropped, and shows an HTTP server's headers masked as given", async () => {
    const { user } = setup({ dropped: 1234, headers: [{ name: "Authorization", value: "Bearer …" }] });
    expect(screen.getByText(/1,234 older messages dropped/)).toBeTruthy();
    await user.click(screen.getByText("Headers sent with every request (1)"));
    expect(screen.getByText("Bearer …")).toBeTruthy();
  });

  it("renders only the newest messages of a long traffic", () => {
    const many = Array.from({ length: 3000 }, (_, i) => entry(i + 1, { kind: "notification", method: `n/${i}`, json: "{}" }));
    setup({ entries: many });
    expect(rows()).toHaveLength(500);
    expect(methods().at(-1)).toBe("n/2999");
    expect(screen.getByText("The last 500 of 3,000 matching messages")).toBeTruthy();
  });

  it("offers to clear the kept messages only when it can", async () => {
    const onClear = vi.fn();
    const { user } = setup({ onClear });
    await user.click(screen.getByRole("button", { name: "Clear traffic" }));
    expect(onClear).toHaveBeenCalledOnce();
    cleanup();
    setup();
    expect(screen.queryByRole("button", { name: "Clear traffic" })).toBeNull();
  });
});

describe("TrafficPane in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  const rows = () =>
    within(screen.getByRole("region", { name: "消息" }))
      .queryAllByRole("listitem")
      .filter((li) => li.classList.contains("traffic-entry"));
  const methods = () => rows().map((li) => li.querySelector(".traffic-method")?.textContent);

  it("speaks Chinese around the messages, their methods and JSON as sent", async () => {
    act(() => applyLanguage("zh-CN"));
    const onClear = vi.fn();
    const { user, copy } = setup({ onClear, dropped: 1234, missed: 1, headers: [{ name: "Authorization", value: "Bearer …" }] });
    expect(screen.getByRole("region", { name: "通信" })).toBeTruthy();
    expect(screen.getByText("双向的每条 JSON-RPC 消息。服务器设置中的机密已隐去。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "清空通信记录" })).toBeTruthy();
    expect(screen.getByText("每个请求都会发送的请求头（1）")).toBeTruthy();
    expect(screen.getByText("4 条，共 4 条消息 · 已丢弃 1,234 条较早的消息 · 1 条消息未记录（同时到达的太多）")).toBeTruthy();
    const direction = screen.getByRole("combobox", { name: "方向" });
    expect(Array.from((direction as HTMLSelectElement).options, (o) => o.textContent)).toEqual(["双向", "发往服务器", "来自服务器"]);
    expect(methods()).toEqual(["initialize", "initialize", "tools/call", "tools/call"]);
    const [request, response] = rows() as [HTMLElement, HTMLElement];
    expect(within(request).getByLabelText("发出")).toBeTruthy();
    expect(request.querySelector(".traffic-kind")?.textContent).toBe("请求");
    expect(request.querySelector(".traffic-id")?.textContent).toBe("ID 1");
    expect(request.querySelector(".traffic-timing")?.textContent).toBe("12 毫秒后应答");
    expect(within(response).getByLabelText("收到")).toBeTruthy();
    expect(response.querySelector(".traffic-kind")?.textContent).toBe("响应");
    expect(response.querySelector(".traffic-timing")?.textContent).toBe("用时 12 毫秒");

    await user.click(within(rows()[2]!).getByRole("button", { expanded: false }));
    const detail = rows()[2]!.querySelector(".traffic-detail") as HTMLElement;
    expect(detail.textContent).toContain("1.5 秒后收到的响应：");
    const heads = Array.from(detail.querySelectorAll(".traffic-message-head .muted"), (el) => el.textContent);
    expect(heads[0]).toMatch(/^发出的请求 · \d+ 字节$/);
    expect(heads[1]).toMatch(/^收到的响应 · \d+ 字节$/);
    await user.click(within(detail).getAllByRole("button", { name: "复制 JSON" })[0]!);
    expect(copy).toHaveBeenCalledOnce();
    expect(await screen.findByText("已复制消息 3。")).toBeTruthy();

    await user.type(screen.getByRole("searchbox", { name: "筛选通信" }), "nothing like it");
    expect(screen.getByText("没有与筛选条件匹配的消息。")).toBeTruthy();
  });

  it("says in Chinese that a copy failed, and that there is nothing yet", async () => {
    act(() => applyLanguage("zh-CN"));
    const copy = vi.fn(() => Promise.reject(new Error("denied")));
    const { user } = setup({ copy });
    await user.click(within(rows()[1]!).getByRole("button", { expanded: false }));
    await user.click(within(rows()[1]!).getAllByRole("button", { name: "复制 JSON" })[0]!);
    expect(await screen.findByText("无法复制：denied")).toBeTruthy();
    expect(rows()[1]!.textContent).toContain("12 毫秒前发出的、由它应答的请求：");
    cleanup();
    setup({ entries: [] });
    expect(screen.getByText("还没有消息。")).toBeTruthy();
    expect(screen.getByText("0 条，共 0 条消息")).toBeTruthy();
  });
});

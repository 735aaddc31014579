import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuditTable, type AuditTableProps } from "./AuditTable";
import type { AuditEntry_Serialize as AuditEntry, DecidedBy, Given } from "../bindings";
import { applyLanguage, format } from "../i18n";

afterEach(cleanup);

const rows: AuditEntry[] = [
  {
    id: 3,
    atMs: new Date(2025, 10, 25, 14, 3, 7).getTime(),
    kind: "tool_call",
    server: "files",
    subject: "write_file",
    decision: "denied",
    decidedBy: { kind: "person" } as const,
    outcome: { kind: "recorded", detail: "not called" } as const,
    durationMs: null,
    askedBy: "model in conversation 4",
    detail: { path: "/etc/passwd", content: "x" },
    given: "once",
  },
  {
    id: 2,
    atMs: new Date(2025, 10, 25, 14, 2, 0).getTime(),
    kind: "tool_call",
    server: "files",
    subject: "read_file",
    decision: "allowed",
    decidedBy: { kind: "rule", detail: { allow: true, reach: "tool", scope: "always" } } as const,
    outcome: { kind: "succeeded" } as const,
    durationMs: 1250,
    askedBy: "model in conversation 4",
    detail: { path: "/home/ada/notes.md" },
    given: "rule",
  },
  {
    id: 1,
    atMs: new Date(2025, 10, 25, 14, 1, 0).getTime(),
    kind: "sampling",
    server: "demo",
    subject: "createMessage",
    decision: "timed out",
    decidedBy: { kind: "timeout" } as const,
    outcome: { kind: "recorded", detail: "declined" } as const,
    durationMs: 300_000,
    askedBy: "",
    detail: { messages: [] },
    given: null,
  },
];

function setup(overrides: Partial<AuditTableProps> = {}) {
  const props: AuditTableProps = { rows, hasMore: true, onMore: vi.fn(), filter: "", onFilter: vi.fn(), ...overrides };
  const view = render(<AuditTable {...props} />);
  return { props, view };
}

const cells = (row: HTMLElement) => within(row).getAllByRole("cell").map((c) => c.textContent);
const bodyRows = () => screen.getAllByRole("row").slice(1);

describe("AuditTable", () => {
  it("lists every record under its column headers", () => {
    setup();
    const table = screen.getByRole("table", { name: "Approvals and calls, newest first" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Time",
      "Server",
      "Kind",
      "Subject",
      "Asked by",
      "Decision",
      "Decided by",
      "Outcome",
      "Duration",
    ]);
    const [denied, allowed, timedOut] = bodyRows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(cells(denied)).toEqual([
      format.dateTime(new Date(2025, 10, 25, 14, 3, 7)),
      "files",
      "tool call",
      "▸ write_file",
      "model in conversation 4",
      "denied",
      "you, once",
      "not called",
      "—",
    ]);
    expect(cells(allowed)).toEqual([
      format.dateTime(new Date(2025, 10, 25, 14, 2, 0)),
      "files",
      "tool call",
      "▸ read_file",
      "model in conversation 4",
      "allowed",
      "rule: allowed for this tool, always",
      "ok",
      "1.3 s",
    ]);
    expect(cells(timedOut)[4]).toBe("—");
    expect(cells(timedOut)[6]).toBe("timeout");
    expect(cells(timedOut)[8]).toBe("5 min 00 s");
    // Colour follows the decision; the word is always there too.
    expect(within(allowed).getByText("allowed").className).toContain("decision-yes");
    expect(within(denied).getByText("denied").className).toContain("decision-no");
    expect(within(timedOut).getByText("timed out").className).toContain("decision-no");
  });

  it("expands a record's arguments as indented JSON, and folds them again", async () => {
    setup();
    const toggle = screen.getByRole("button", { name: "write_file" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const args = screen.getByLabelText("Arguments of write_file");
    expect(args.textContent).toBe('{\n  "path": "/etc/passwd",\n  "content": "x"\n}');
    expect(toggle.getAttribute("aria-controls")).toBe(args.id);
    expect(screen.queryByLabelText("Arguments of read_file")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "createMessage" }));
    expect(screen.getByLabelText("Request of createMessage").textContent).toContain('"messages": []');
    await userEvent.click(toggle);
    expect(screen.queryByLabelText("Arguments of write_file")).toBeNull();
  });

  it("says how each allow was given", () => {
    const given = (g: Given | null, decidedBy: DecidedBy = { kind: "person" }) => {
      cleanup();
      setup({ rows: [{ ...rows[1]!, given: g, decidedBy }] });
      return cells(bodyRows()[0]!)[6];
    };
    expect(given("once")).toBe("you, once");
    expect(given("session")).toBe("you, for this session");
    expect(given("always")).toBe("you, always");
    expect(given("rule", { kind: "rule", detail: { allow: true, reach: "server", scope: "session" } })).toBe(
      "rule: allowed for this server, this session",
    );
    expect(given("rule", { kind: "trusted_read_only" })).toBe("rule: trusted server: read-only tool");
    expect(given("own", { kind: "own_call" })).toBe("by you (your own call)");
    expect(given(null, { kind: "no_one_to_ask" })).toBe("no one to ask");
  });

  it("hands the search to the host and shows what it found", async () => {
    const { props, view } = setup();
    await userEvent.type(screen.getByRole("searchbox", { name: "Search audit log" }), "d");
    expect(props.onFilter).toHaveBeenCalledWith("d");

    // The rows shown are the host's answer: none is filtered out here.
    view.rerender(<AuditTable {...props} rows={[rows[2]!]} filter="messages" />);
    expect(bodyRows().map((r) => cells(r)[3])).toEqual(["▸ createMessage"]);
    expect(screen.getByRole("table").querySelector("caption")?.textContent).toContain("(matching “messages”)");

    view.rerender(<AuditTable {...props} rows={[]} filter="nothing like it" />);
    expect(screen.getByText("No entry matches the search.")).toBeTruthy();
  });

  it("loads older records on request, while there are any", async () => {
    const { props, view } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Load older" }));
    expect(props.onMore).toHaveBeenCalledOnce();
    view.rerender(<AuditTable {...props} hasMore={false} />);
    expect(screen.queryByRole("button", { name: "Load older" })).toBeNull();
  });

  it("says so when nothing was recorded", () => {
    setup({ rows: [], hasMore: false });
    expect(screen.getByText("Nothing recorded yet.")).toBeTruthy();
  });
});

describe("AuditTable in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the host's records, who decided said in Chinese too", async () => {
    act(() => applyLanguage("zh-CN"));
    setup();
    const table = screen.getByRole("table", { name: "审批与调用，最新的在前" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "时间",
      "服务器",
      "类型",
      "对象",
      "发起者",
      "决定",
      "决定方式",
      "结果",
      "用时",
    ]);
    const [denied, allowed, timedOut] = bodyRows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(cells(denied)[0]).toBe("2025年11月25日 14:03:07");
    expect(cells(denied)[2]).toBe("工具调用");
    expect(cells(timedOut)[2]).toBe("采样");
    expect(cells(denied)[5]).toBe("已拒绝");
    expect(cells(denied)[6]).toBe("你，仅此一次");
    expect(cells(allowed)[6]).toBe("规则：此工具已允许，始终");
    expect(cells(allowed)[8]).toBe("1.3 秒");
    expect(cells(timedOut)[8]).toBe("5 分 00 秒");
    expect(screen.getByRole("searchbox", { name: "搜索审计记录" }).getAttribute("placeholder")).toBe("工具、服务器、参数、结果…");
    await userEvent.click(screen.getByRole("button", { name: "write_file" }));
    expect(screen.getByLabelText("write_file 的参数")).toBeTruthy();
    expect(screen.getByRole("button", { name: "加载更早的记录" })).toBeTruthy();
  });
});

import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LogPane, type LogPaneProps } from "./LogPane";
import type { LogEntry_Serialize as LogEntry, SandboxNote } from "../bindings";
import samples from "../testing/reasons.json";
import { applyLanguage } from "../i18n";

afterEach(cleanup);

const at = (i: number) => Date.UTC(2025, 10, 25, 12, 0, i);
const entries: LogEntry[] = [
  { server: "demo", atMs: at(1), source: "stderr", level: null, text: "listening on stdio", note: null },
  { server: "demo", atMs: at(2), source: "protocol", level: null, text: "skipped a malformed line", note: null },
  { server: "demo", atMs: at(3), source: "server", level: "debug", text: "cache warmed", note: null },
  { server: "demo", atMs: at(4), source: "server", level: "warning", text: "disk almost full", note: null },
  { server: "demo", atMs: at(5), source: "server", level: "error", text: "write failed", note: null },
];

function setup(overrides: Partial<LogPaneProps> = {}) {
  const props: LogPaneProps = { entries, level: null, canSetLevel: true, onSetLevel: vi.fn(), onClear: vi.fn(), ...overrides };
  const view = render(<LogPane {...props} />);
  return { props, view, user: userEvent.setup() };
}

const shownTexts = () =>
  within(screen.getByRole("log", { name: "Log lines" }))
    .queryAllByRole("listitem")
    .map((li) => li.querySelector(".log-text")?.textContent);

describe("LogPane", () => {
  it("shows every line with its time, source and level", () => {
    setup();
    expect(shownTexts()).toEqual(entries.map((e) => e.text));
    const line = within(screen.getByRole("log")).getAllByRole("listitem")[4] as HTMLElement;
    expect(line.textContent).toContain("error");
    expect(line.querySelector("time")?.getAttribute("dateTime")).toBe("2025-11-25T12:00:05.000Z");
    expect(screen.getByText("5 of 5 lines")).toBeTruthy();
  });

  it("offers to change the sandbox beside a note that a refusal may be the sandbox's", async () => {
    const note: LogEntry = {
      server: "demo",
      atMs: at(6),
      source: "sandbox",
      level: null,
      text: "this may be the sandbox: the server has no network; allow it the network in its settings if it needs it",
      note: "noNetwork",
    };
    const onChangeSandbox = vi.fn();
    const { user } = setup({ entries: [...entries, note], onChangeSandbox });
    const buttons = within(screen.getByRole("log")).getAllByRole("button", { name: "Change its sandbox…" });
    expect(buttons).toHaveLength(1);
    await user.click(buttons[0] as HTMLElement);
    expect(onChangeSandbox).toHaveBeenCalledOnce();
  });

  it("says each of the host's notes as the host words it", () => {
    const notes = samples.sandboxNotes as { text: string; note: SandboxNote }[];
    const lines = notes.map(({ note }, i): LogEntry => ({ server: "demo", atMs: at(i), source: "sandbox", level: null, text: "", note }));
    setup({ entries: lines });
    expect(Array.from(screen.getByRole("log").querySelectorAll(".log-text"), (el) => el.firstChild?.textContent)).toEqual(notes.map((n) => n.text));
  });

  it("filters by minimum level, keeping lines that have none", async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByRole("combobox", { name: "Minimum level" }), "warning");
    expect(shownTexts()).toEqual(["listening on stdio", "skipped a malformed line", "disk almost full", "write failed"]);
  });

  it("filters by source and by text", async () => {
    const { user } = setup();
    await user.click(screen.getByRole("checkbox", { name: "Standard error" }));
    await user.click(screen.getByRole("checkbox", { name: "Protocol problems" }));
    expect(shownTexts()).toEqual(["cache warmed", "disk almost full", "write failed"]);
    await user.type(screen.getByRole("searchbox", { name: "Filter log lines" }), "FAIL");
    expect(shownTexts()).toEqual(["write failed"]);
    await user.click(screen.getByRole("checkbox", { name: "Server messages" }));
    expect(screen.getByText("No line matches the filter.")).toBeTruthy();
  });

  it("asks the server for a level only when it offers logging", async () => {
    const { props, user, view } = setup();
    await user.selectOptions(screen.getByRole("combobox", { name: "Server log level" }), "notice");
    expect(props.onSetLevel).toHaveBeenCalledExactlyOnceWith("notice");
    await user.click(screen.getByRole("button", { name: "Clear log" }));
    expect(props.onClear).toHaveBeenCalledOnce();

    view.rerender(<LogPane {...props} canSetLevel={false} />);
    const select = screen.getByRole("combobox", { name: "Server log level", description: "This server offers no logging control." });
    expect((select as HTMLSelectElement).disabled).toBe(true);
  });

  it("renders only the newest 2,000 matching lines", () => {
    const many: LogEntry[] = Array.from({ length: 2500 }, (_, i) => ({
      server: "demo",
      atMs: at(0) + i,
      source: "stderr",
      level: null,
      note: null,
      text: `line ${i}`,
    }));
    setup({ entries: many });
    // Plain DOM reads here: role queries over 2,000 items are slow in jsdom.
    const texts = Array.from(screen.getByRole("log").querySelectorAll("li .log-text"), (el) => el.textContent);
    expect(texts).toHaveLength(2000);
    expect(texts[0]).toBe("line 500");
    expect(texts.at(-1)).toBe("line 2499");
    expect(screen.getByText("The last 2,000 of 2,500 matching lines")).toBeTruthy();
  });

  it("follows new lines until the person scrolls up, then offers to jump to the latest", async () => {
    const { props, view, user } = setup();
    const log = screen.getByRole("log");
    // jsdom has no layout: give the list a height and a scrollable content size.
    Object.defineProperty(log, "clientHeight", { configurable: true, value: 100 });
    Object.defineProperty(log, "scrollHeight", { configurable: true, get: () => 1000 });
    view.rerender(<LogPane {...props} entries={[...entries]} />);
    expect(log.scrollTop).toBe(1000);
    expect(screen.queryByRole("button", { name: "Jump to latest" })).toBeNull();

    log.scrollTop = 200;
    fireEvent.scroll(log);
    view.rerender(<LogPane {...props} entries={[...entries, { ...entries[0]!, text: "more" }]} />);
    expect(log.scrollTop).toBe(200); // left where the person is reading

    await user.click(screen.getByRole("button", { name: "Jump to latest" }));
    expect(log.scrollTop).toBe(1000);
    expect(screen.queryByRole("button", { name: "Jump to latest" })).toBeNull();
  });
});

describe("LogPane in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the lines, each line and level as the server wrote it", async () => {
    act(() => applyLanguage("zh-CN"));
    const note: LogEntry = { server: "demo", atMs: at(6), source: "sandbox", level: null, text: "this may be the sandbox: …", note: "noNetwork" };
    const { user, props, view } = setup({ entries: [...entries, note], onChangeSandbox: vi.fn() });
    expect(screen.getByRole("region", { name: "日志" })).toBeTruthy();
    const level = screen.getByRole("combobox", { name: "服务器日志级别" }) as HTMLSelectElement;
    expect(level.options[0]?.textContent).toBe("服务器默认");
    expect(level.options[1]?.textContent).toBe("debug");
    expect(screen.getByRole("button", { name: "清空日志" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "来源" })).toBeTruthy();
    const minimum = screen.getByRole("combobox", { name: "最低级别", description: "没有级别的行总是显示。" }) as HTMLSelectElement;
    expect(minimum.options[0]?.textContent).toBe("全部");
    expect(screen.getByText("6 行，共 6 行")).toBeTruthy();
    const log = screen.getByRole("log", { name: "日志行" });
    expect(Array.from(log.querySelectorAll(".log-source"), (el) => el.textContent)).toEqual([
      "stderr",
      "协议",
      "服务器",
      "服务器",
      "服务器",
      "沙箱",
    ]);
    expect(within(log).getByText("这可能是沙箱所致：服务器没有网络；如果它需要网络，请在它的设置中允许", { exact: false })).toBeTruthy();
    expect(within(log).getByRole("button", { name: "更改它的沙箱…" })).toBeTruthy();

    // A host's note is found by the words the window shows, not by the English beside it.
    await user.type(screen.getByRole("searchbox", { name: "筛选日志行" }), "沙箱所致");
    expect(screen.getByText("1 行，共 6 行")).toBeTruthy();
    await user.clear(screen.getByRole("searchbox", { name: "筛选日志行" }));
    await user.type(screen.getByRole("searchbox", { name: "筛选日志行" }), "this may be");
    expect(screen.getByText("没有与筛选条件匹配的行。")).toBeTruthy();
    await user.clear(screen.getByRole("searchbox", { name: "筛选日志行" }));

    await user.click(screen.getByRole("checkbox", { name: "标准错误输出" }));
    await user.click(screen.getByRole("checkbox", { name: "协议问题" }));
    await user.click(screen.getByRole("checkbox", { name: "沙箱提示" }));
    expect(screen.getByText("3 行，共 6 行")).toBeTruthy();
    await user.type(screen.getByRole("searchbox", { name: "筛选日志行" }), "nothing like it");
    expect(screen.getByText("没有与筛选条件匹配的行。")).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "服务器消息" })).toBeTruthy();

    view.rerender(<LogPane {...props} entries={[]} canSetLevel={false} />);
    expect(screen.getByRole("combobox", { name: "服务器日志级别", description: "此服务器不支持设置日志级别。" })).toBeTruthy();
    expect(screen.getByText("还没有日志。")).toBeTruthy();
  });

  it("says in Chinese that only the newest lines are shown", () => {
    act(() => applyLanguage("zh-CN"));
    const many: LogEntry[] = Array.from({ length: 2500 }, (_, i) => ({ server: "demo", atMs: at(0) + i, source: "stderr", level: null, text: `line ${i}`, note: null }));
    setup({ entries: many });
    expect(screen.getByText("2,500 行匹配结果中的最后 2,000 行")).toBeTruthy();
  });
});

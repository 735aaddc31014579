import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProgressList } from "./ProgressList";
import type { ProgressItem_Serialize as ProgressItem } from "../bindings";
import { applyLanguage } from "../i18n";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const items: ProgressItem[] = [
  { token: "t1", server: "files", label: "search_files", read: null, progress: 3, total: 10, message: "scanning /home", startedMs: 100_000 },
  { token: "t2", server: "demo", label: "longRunningOperation", read: null, progress: 0, total: null, message: null, startedMs: 95_000 },
];

/** An agent's read, named by the host in English. */
const read: ProgressItem = {
  token: "t3",
  server: "demo",
  label: "Read demo://readme",
  read: { kind: "resource", uri: "demo://readme" },
  progress: 0,
  total: null,
  message: null,
  startedMs: 110_000,
};

describe("ProgressList", () => {
  it("shows each request's progress, server, message and elapsed time", () => {
    vi.useFakeTimers();
    vi.setSystemTime(112_000);
    render(<ProgressList items={items} onCancel={vi.fn()} />);
    const [first, second] = screen.getAllByRole("listitem") as [HTMLElement, HTMLElement];

    const bar = within(first).getByRole("progressbar", { name: "Progress of search_files" });
    expect([bar.getAttribute("value"), bar.getAttribute("max")]).toEqual(["3", "10"]);
    expect(first.textContent).toContain("files");
    expect(first.textContent).toContain("3 of 10 · scanning /home");
    expect(first.textContent).toContain("12 s");

    // No total: the bar says nothing about how far along it is.
    expect(within(second).getByRole("progressbar").hasAttribute("value")).toBe(false);
    expect(second.textContent).toContain("Waiting for progress");
    expect(second.textContent).toContain("17 s");

    act(() => vi.advanceTimersByTime(50_000));
    expect(first.textContent).toContain("1 min 02 s");
  });

  it("cancels the request whose button was pressed", () => {
    const onCancel = vi.fn();
    render(<ProgressList items={items} onCancel={onCancel} />);
    fireEvent.click(screen.getByRole("button", { name: "Cancel longRunningOperation" }));
    expect(onCancel).toHaveBeenCalledExactlyOnceWith("t2");
  });

  it("writes large and fractional amounts as the window's language writes numbers", () => {
    render(<ProgressList items={[{ ...read, progress: 12345.678, total: 20000 }]} onCancel={vi.fn()} />);
    expect(screen.getByRole("listitem").textContent).toContain("12,345.68 of 20,000");
  });

  it("names a read as the host does", () => {
    render(<ProgressList items={[read]} onCancel={vi.fn()} />);
    expect(screen.getByRole("button", { name: `Cancel ${read.label}` })).toBeTruthy();
  });
});

describe("ProgressList in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says how far along each request is, and for how long, in Chinese", () => {
    vi.useFakeTimers();
    vi.setSystemTime(112_000);
    act(() => applyLanguage("zh-CN"));
    render(<ProgressList items={items} onCancel={vi.fn()} />);
    const [first, second] = screen.getAllByRole("listitem") as [HTMLElement, HTMLElement];
    expect(within(first).getByRole("progressbar", { name: "search_files 的进度" })).toBeTruthy();
    expect(first.textContent).toContain("3 / 10 · scanning /home");
    expect(first.textContent).toContain("12 秒");
    expect(second.textContent).toContain("等待进度");
    expect(within(second).getByRole("button", { name: "取消 longRunningOperation" }).textContent).toBe("取消");
    act(() => vi.advanceTimersByTime(50_000));
    expect(first.textContent).toContain("1 分 02 秒");
  });

  it("names a read in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    render(<ProgressList items={[read]} onCancel={vi.fn()} />);
    expect(screen.getByRole("progressbar", { name: "读取 demo://readme 的进度" })).toBeTruthy();
  });
});

import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { ApprovalQueue, type QueueItem } from "./ApprovalQueue";
import { Countdown } from "./Countdown";
import { formatLeft } from "./time";

const NOW = Date.parse("2025-06-01T12:00:00Z");

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const items: QueueItem[] = [
  { id: 1, server: "files", deadlineMs: NOW + 272_000, kind: "tool_call", summary: "call delete_file" },
  { id: 2, server: "crm", deadlineMs: NOW + 65_000, kind: "elicitation", summary: "Your email, please" },
  { id: 3, server: "research", deadlineMs: NOW + 3_725_000, kind: "sampling", summary: "a reply from a model" },
  { id: 4, server: "indexer", deadlineMs: NOW + 5_000, kind: "roots", summary: "which folders it may see" },
];

describe("ApprovalQueue", () => {
  it("lists each request with its server, kind, summary and time left", () => {
    render(<ApprovalQueue items={items} onSelect={vi.fn()} />);
    const rows = within(screen.getByRole("list", { name: "Waiting requests" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(rows).toEqual([
      "files · Tool callcall delete_file4:32 left",
      "crm · QuestionYour email, please1:05 left",
      "research · Model replya reply from a model1:02:05 left",
      "indexer · Folderswhich folders it may see0:05 left",
    ]);
  });

  it("marks the selected request and reports a choice", () => {
    const onSelect = vi.fn();
    render(<ApprovalQueue items={items} selectedId={2} onSelect={onSelect} />);
    const buttons = screen.getAllByRole("button");
    expect(buttons.map((b) => b.getAttribute("aria-current"))).toEqual([null, "true", null, null]);
    act(() => buttons[2]?.click());
    expect(onSelect).toHaveBeenCalledWith(3);
  });

  it("counts down as time passes", () => {
    render(<ApprovalQueue items={items} onSelect={vi.fn()} />);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getAllByRole("button")[0]?.textContent).toMatch(/4:22 left$/);
    expect(screen.getAllByRole("button")[3]?.textContent).toMatch(/0:00 left$/);
  });
});

describe("Countdown", () => {
  it("says when and how the request answers itself", () => {
    render(<Countdown deadlineMs={NOW + 272_000} outcome="declined" />);
    expect(screen.getByRole("timer").textContent).toBe("Answers itself in 4:32 (declined)");
    act(() => vi.advanceTimersByTime(272_000));
    expect(screen.getByRole("timer").textContent).toBe("Answering itself now (declined)");
  });

  it("formats minutes and hours", () => {
    expect(formatLeft(0)).toBe("0:00");
    expect(formatLeft(59_001)).toBe("1:00");
    expect(formatLeft(3_600_000)).toBe("1:00:00");
    expect(formatLeft(-5)).toBe("0:00");
  });
});

describe("ApprovalQueue and Countdown in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("name each kind of request and the time left in Chinese, the servers' words as sent", () => {
    act(() => applyLanguage("zh-CN"));
    render(<ApprovalQueue items={items} onSelect={vi.fn()} />);
    const rows = within(screen.getByRole("list", { name: "等待处理的请求" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(rows).toEqual([
      "files · 工具调用call delete_file剩余 4:32",
      "crm · 提问Your email, please剩余 1:05",
      "research · 模型回复a reply from a model剩余 1:02:05",
      "indexer · 文件夹which folders it may see剩余 0:05",
    ]);
  });

  it("says in Chinese how each request answers itself", () => {
    act(() => applyLanguage("zh-CN"));
    const { unmount } = render(<Countdown deadlineMs={NOW + 272_000} outcome="declined" />);
    expect(screen.getByRole("timer").textContent).toBe("4:32 后自动拒绝");
    act(() => vi.advanceTimersByTime(272_000));
    expect(screen.getByRole("timer").textContent).toBe("正在自动拒绝");
    unmount();
    const said = (outcome: string) => {
      const { unmount } = render(<Countdown deadlineMs={Date.now() + 65_000} outcome={outcome} />);
      const text = screen.getByRole("timer").textContent;
      unmount();
      return text;
    };
    expect(said("denied")).toBe("1:05 后自动拒绝");
    expect(said("cancelled")).toBe("1:05 后自动取消");
    expect(said("shares nothing")).toBe("1:05 后自动回答：不共享任何文件夹");
    expect(said("已忽略")).toBe("1:05 后自动回答（已忽略）");
  });

  it("follows a change of language while shown", () => {
    render(<Countdown deadlineMs={NOW + 272_000} outcome="cancelled" />);
    expect(screen.getByRole("timer").textContent).toBe("Answers itself in 4:32 (cancelled)");
    act(() => applyLanguage("zh-CN"));
    expect(screen.getByRole("timer").textContent).toBe("4:32 后自动取消");
  });
});

import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StatusBadge } from "./StatusBadge";
import type { Reason, ServerState_Serialize as ServerState } from "../bindings";
import { applyLanguage } from "../i18n";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const text = (state: ServerState | null, enabled = true) => {
  const { container, unmount } = render(<StatusBadge state={state} enabled={enabled} />);
  const read = container.textContent;
  unmount();
  return read;
};

describe("StatusBadge", () => {
  it("says each state in words", () => {
    expect(text({ state: "starting" })).toBe("Starting…");
    expect(text({ state: "running", protocolVersion: "2025-11-25", serverName: "demo", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } })).toBe("Running");
    expect(text({ state: "stopped" })).toBe("Stopped");
    expect(text({ state: "failed", reason: { kind: "exited", exit: "exit status: 1", lastLine: null }, gaveUpAfter: null, stderrTail: [] })).toBe("Failed: the server exited (exit status: 1)");
    expect(text({ state: "auth_required", detail: { kind: "said", text: "401 from https://mcp.example" }, tokenInstead: false })).toBe("Sign-in needed");
    expect(text({ state: "running", protocolVersion: "2025-11-25", serverName: "demo", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } }, false)).toBe("Disabled");
    expect(text(null)).toBe("Not started");
  });

  it("carries its whole text as its title, for a badge cut short in a narrow list", () => {
    const program = `/nonexistent/${"deep/".repeat(40)}server`;
    const reason: Reason = { kind: "notStarted", program, detail: "No such file or directory (os error 2)" };
    const { container, unmount } = render(
      <StatusBadge state={{ state: "failed", reason, gaveUpAfter: null, stderrTail: [] }} enabled />,
    );
    expect(container.querySelector(".status-badge")?.getAttribute("title")).toBe(`Failed: could not start "${program}": No such file or directory (os error 2)`);
    unmount();
    render(<StatusBadge state={{ state: "auth_required", detail: { kind: "said", text: "401 from https://mcp.example" }, tokenInstead: false }} enabled />);
    expect(screen.getByTitle("Sign-in needed: 401 from https://mcp.example")).toBeTruthy();
  });

  it("counts a restart down live, then says it is restarting", () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const state: ServerState = { state: "restarting", attempt: 2, backoffMs: 3000, reason: { kind: "exited", exit: "signal: 9 (SIGKILL)", lastLine: null } };
    const { container } = render(<StatusBadge state={state} enabled />);
    expect(container.textContent).toBe("Restarting in 3 s (attempt 2)");
    act(() => vi.advanceTimersByTime(1000));
    expect(container.textContent).toBe("Restarting in 2 s (attempt 2)");
    act(() => vi.advanceTimersByTime(1000));
    expect(container.textContent).toBe("Restarting in 1 s (attempt 2)");
    act(() => vi.advanceTimersByTime(1000));
    expect(container.textContent).toBe("Restarting… (attempt 2)");
  });

  it("counts from when the state began, when it is known", () => {
    const state: ServerState = { state: "restarting", attempt: 1, backoffMs: 10_000, reason: { kind: "exited", exit: "signal: 9 (SIGKILL)", lastLine: null } };
    render(<StatusBadge state={state} enabled since={50_000} now={54_200} />);
    expect(screen.getByText("Restarting in 6 s (attempt 1)")).toBeTruthy();
    cleanup();
    // A start of 0 means "not known": the countdown starts when the badge sees the state.
    vi.useFakeTimers();
    vi.setSystemTime(900_000);
    render(<StatusBadge state={state} enabled since={0} />);
    expect(screen.getByText("Restarting in 10 s (attempt 1)")).toBeTruthy();
  });

  it("restarts the countdown for a new attempt", () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const first: ServerState = { state: "restarting", attempt: 1, backoffMs: 2000, reason: { kind: "exited", exit: "signal: 9 (SIGKILL)", lastLine: null } };
    const { container, rerender } = render(<StatusBadge state={first} enabled />);
    act(() => vi.advanceTimersByTime(2000));
    expect(container.textContent).toBe("Restarting… (attempt 1)");
    rerender(<StatusBadge state={{ ...first, attempt: 2, backoffMs: 4000 }} enabled />);
    expect(container.textContent).toBe("Restarting in 4 s (attempt 2)");
  });
});

describe("StatusBadge in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says each state in Chinese, what the server said as it said it", () => {
    act(() => applyLanguage("zh-CN"));
    expect(text({ state: "starting" })).toBe("正在启动…");
    expect(text({ state: "running", protocolVersion: "2025-11-25", serverName: "demo", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } })).toBe("运行中");
    expect(text({ state: "stopped" })).toBe("已停止");
    expect(text({ state: "failed", reason: { kind: "exited", exit: "exit status: 1", lastLine: null }, gaveUpAfter: 3, stderrTail: [] })).toBe("失败：服务器已退出（exit status: 1）（重启 3 次后放弃）");
    expect(text({ state: "stopped" }, false)).toBe("已停用");
    expect(text(null)).toBe("未启动");
    render(<StatusBadge state={{ state: "auth_required", detail: { kind: "said", text: "401 from https://mcp.example" }, tokenInstead: false }} enabled />);
    expect(screen.getByTitle("需要登录：401 from https://mcp.example").textContent).toBe("需要登录");
  });

  it("counts a restart down in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const state: ServerState = { state: "restarting", attempt: 2, backoffMs: 2000, reason: { kind: "exited", exit: "signal: 9 (SIGKILL)", lastLine: null } };
    const { container } = render(<StatusBadge state={state} enabled />);
    expect(container.textContent).toBe("2 秒后重启（第 2 次尝试）");
    expect(container.querySelector(".status-badge")?.getAttribute("title")).toBe("2 秒后重启（第 2 次尝试）：服务器已退出（signal: 9 (SIGKILL)）");
    act(() => vi.advanceTimersByTime(2000));
    expect(container.textContent).toBe("正在重启…（第 2 次尝试）");
  });
});

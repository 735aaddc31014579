import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { ToolCallCard } from "./ToolCallCard";

afterEach(cleanup);

const base = { name: "demo__echo", server: "demo", tool: "echo", arguments: { text: "hi" } };

describe("a tool call card", () => {
  it("says the call waits for approval", () => {
    render(<ToolCallCard {...base} state={{ kind: "awaiting", server: "demo", tool: "echo", arguments: { text: "hi" } }} />);
    expect(screen.getByRole("region", { name: "Tool call echo of demo" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("Waiting for your approval");
  });

  it("shows progress while running, and Cancel stops the conversation", async () => {
    const onStop = vi.fn();
    render(
      <ToolCallCard
        {...base}
        state={{ kind: "running", arguments: { text: "edited" }, decidedBy: { kind: "person" } as const, progress: 1, total: 4, message: "a quarter" }}
        onStop={onStop}
      />,
    );
    expect(screen.getByRole("status").textContent).toBe("Running (allowed by user)");
    expect(screen.getByText("a quarter")).toBeTruthy();
    expect(screen.getByRole("progressbar")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onStop).toHaveBeenCalled();
  });

  it("renders the result with the explorer's renderer", () => {
    render(<ToolCallCard {...base} state={{ kind: "result", result: { content: [{ type: "text", text: "echoed: hi" }] }, isError: false }} />);
    expect(screen.getByRole("status").textContent).toBe("Done");
    expect(screen.getByRole("region", { name: "Tool result" }).textContent).toContain("echoed: hi");
  });

  it("says who denied a call, and why one failed", () => {
    const { rerender } = render(<ToolCallCard {...base} state={{ kind: "denied", decidedBy: { kind: "person" } as const }} />);
    expect(screen.getByRole("status").textContent).toBe("Denied by user");
    rerender(<ToolCallCard {...base} state={{ kind: "failed", error: { kind: "stopped" } }} />);
    expect(screen.getByRole("status").textContent).toBe("Failed");
    expect(screen.getByText("the conversation was stopped")).toBeTruthy();
    rerender(<ToolCallCard {...base} state={{ kind: "not_made", reason: "This tool call was not made: the user denied it." }} />);
    expect(screen.getByText("The model was told: This tool call was not made: the user denied it.")).toBeTruthy();
  });
});

describe("a tool call card in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says where the call stands in Chinese, the person as 你 and any other decider in Chinese too", async () => {
    act(() => applyLanguage("zh-CN"));
    const { rerender } = render(<ToolCallCard {...base} state={{ kind: "awaiting", server: "demo", tool: "echo", arguments: { text: "hi" } }} />);
    expect(screen.getByRole("region", { name: "工具调用：demo 的 echo" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("等待你的批准");
    expect(screen.getByText("参数").tagName).toBe("SUMMARY");
    const onStop = vi.fn();
    rerender(
      <ToolCallCard {...base} state={{ kind: "running", arguments: {}, decidedBy: { kind: "person" } as const, progress: 1200, total: null, message: null }} onStop={onStop} />,
    );
    expect(screen.getByRole("status").textContent).toBe("运行中（已由你允许）");
    expect(screen.getByText("1,200")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "取消" }));
    expect(onStop).toHaveBeenCalled();
    rerender(<ToolCallCard {...base} state={{ kind: "running", arguments: {}, decidedBy: { kind: "trusted_read_only" } as const, progress: null, total: null, message: null }} />);
    expect(screen.getByRole("status").textContent).toBe("运行中（允许方：受信任的服务器：只读工具）");
    rerender(<ToolCallCard {...base} state={{ kind: "denied", decidedBy: { kind: "person" } as const }} />);
    expect(screen.getByRole("status").textContent).toBe("已被你拒绝");
    rerender(<ToolCallCard {...base} state={{ kind: "denied", decidedBy: { kind: "timeout" } as const }} />);
    expect(screen.getByRole("status").textContent).toBe("已拒绝（决定方：超时）");
    rerender(<ToolCallCard {...base} state={{ kind: "result", result: { content: [] }, isError: false }} />);
    expect(screen.getByRole("status").textContent).toBe("完成");
    rerender(<ToolCallCard {...base} state={{ kind: "failed", error: { kind: "said", text: "disk full" } }} />);
    expect(screen.getByRole("status").textContent).toBe("失败");
    expect(screen.getByText("disk full")).toBeTruthy();
    rerender(<ToolCallCard {...base} state={{ kind: "failed", error: { kind: "notRunning", server: "demo" } }} />);
    expect(screen.getByText("服务器 demo 未在运行。")).toBeTruthy();
    rerender(<ToolCallCard {...base} state={{ kind: "not_made", reason: "This tool call was not made." }} />);
    expect(screen.getByRole("status").textContent).toBe("未运行");
    expect(screen.getByText("已告知模型：This tool call was not made.")).toBeTruthy();
    rerender(<ToolCallCard {...base} server={null} tool={null} state={null} />);
    expect(screen.getByRole("region", { name: "工具调用：demo__echo" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("没有结果");
  });
});

import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
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
        state={{ kind: "running", arguments: { text: "edited" }, decidedBy: "user", progress: 1, total: 4, message: "a quarter" }}
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
    const { rerender } = render(<ToolCallCard {...base} state={{ kind: "denied", decidedBy: "user" }} />);
    expect(screen.getByRole("status").textContent).toBe("Denied by user");
    rerender(<ToolCallCard {...base} state={{ kind: "failed", error: "stopped" }} />);
    expect(screen.getByRole("status").textContent).toBe("Failed");
    expect(screen.getByText("stopped")).toBeTruthy();
  });
});

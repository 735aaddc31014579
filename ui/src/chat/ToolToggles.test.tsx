import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatTools, LeftOut } from "../bindings";
import samples from "../testing/reasons.json";
import { applyLanguage } from "../i18n";
import { ToolToggles } from "./ToolToggles";

afterEach(cleanup);

const tools: ChatTools = {
  servers: [
    { server: "demo", on: true, tools: [{ name: "echo", title: null, description: "Echoes", on: true }, { name: "add", title: "Add numbers", description: null, on: false }] },
    { server: "files", on: false, tools: [{ name: "read", title: null, description: null, on: true }] },
  ],
  offered: 1,
  many: 128,
  leftOut: null,
};

describe("the tool toggles", () => {
  it("shows the count and each server's and tool's toggle", async () => {
    const onServer = vi.fn();
    const onTool = vi.fn();
    render(<ToolToggles tools={tools} onServer={onServer} onTool={onTool} />);
    expect(screen.getByTestId("tools-offered").textContent).toBe("1");
    await userEvent.click(screen.getByText(/Tools offered/));
    expect((screen.getByRole("checkbox", { name: "Add numbers" }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole("checkbox", { name: "read" }) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole("checkbox", { name: "files" }));
    expect(onServer).toHaveBeenCalledWith("files", true);
    await userEvent.click(screen.getByRole("checkbox", { name: "echo" }));
    expect(onTool).toHaveBeenCalledWith("demo", "echo", false);
  });

  it("warns above the limit, naming what is left out as the host does", () => {
    for (const { text, leftOut } of samples.leftOut as { text: string; leftOut: LeftOut }[]) {
      const { unmount } = render(<ToolToggles tools={{ ...tools, offered: 128, leftOut }} onServer={vi.fn()} onTool={vi.fn()} />);
      expect(screen.getByRole("alert").textContent).toBe(text);
      unmount();
    }
  });
});

describe("the tool toggles in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("count the tools offered in Chinese, with the servers' and tools' names as they are", () => {
    act(() => applyLanguage("zh-CN"));
    const { rerender } = render(<ToolToggles tools={{ ...tools, offered: 1234 }} onServer={vi.fn()} onTool={vi.fn()} />);
    expect(document.querySelector("summary")?.textContent).toBe("提供给模型的工具：1,234");
    expect(screen.getByTestId("tools-offered").textContent).toBe("1,234");
    expect(screen.getByRole("checkbox", { name: "Add numbers" })).toBeTruthy();
    rerender(<ToolToggles tools={{ servers: [], offered: 0, many: 128, leftOut: null }} onServer={vi.fn()} onTool={vi.fn()} />);
    expect(screen.getByText("没有运行中的服务器提供工具。")).toBeTruthy();
    const leftOut = { on: 140, named: [{ server: "big", tool: "t128" }, { server: "demo", tool: "echo" }], more: 7 };
    rerender(<ToolToggles tools={{ ...tools, offered: 128, leftOut }} onServer={vi.fn()} onTool={vi.fn()} />);
    expect(screen.getByRole("alert").textContent).toBe(
      "已开启 140 个工具，而模型最多只能得到 128 个：被略去的有 big 的 t128、demo 的 echo、另外 7 个。请关闭这个对话不需要的服务器或工具。",
    );
  });
});

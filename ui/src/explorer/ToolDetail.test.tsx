import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Tool } from "../mcp/schema";
import { applyLanguage } from "../i18n";
import { ToolDetail } from "./ToolDetail";

afterEach(cleanup);

const tool: Tool = {
  name: "delete_file",
  title: "Delete a file",
  description: "Removes a file **for good**.",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
  annotations: { readOnlyHint: false, destructiveHint: true },
};

const base = { server: "files", tool, form: <label>Path <input /></label>, onInvoke: () => {}, busy: false };

describe("ToolDetail", () => {
  it("shows the tool, its description and the form", () => {
    render(<ToolDetail {...base} />);
    const detail = screen.getByRole("article", { name: "Delete a file" });
    expect(within(detail).getByText("delete_file")).toBeTruthy();
    expect(within(detail).getByText("Tool of", { exact: false }).textContent).toBe("Tool of files");
    expect(within(detail).getByText("for good").tagName).toBe("STRONG");
    expect(within(detail).getByRole("textbox", { name: "Path" })).toBeTruthy();
  });

  it("offers to run a tool that may run as a task as one, and says a required one does", async () => {
    const onAsTask = vi.fn();
    const optional: Tool = { ...tool, execution: { taskSupport: "optional" } };
    render(<ToolDetail {...base} tool={optional} asTask={false} onAsTask={onAsTask} />);
    await userEvent.click(screen.getByRole("checkbox", { name: /Run as a task at its server/ }));
    expect(onAsTask).toHaveBeenCalledWith(true);
    cleanup();
    render(<ToolDetail {...base} tool={{ ...tool, execution: { taskSupport: "required" } }} onAsTask={onAsTask} />);
    expect(screen.queryByRole("checkbox", { name: /Run as a task/ })).toBeNull();
    screen.getByText(/Runs as a task at its server/);
    cleanup();
    render(<ToolDetail {...base} onAsTask={onAsTask} />);
    expect(screen.queryByRole("checkbox", { name: /Run as a task/ })).toBeNull();
  });

  it("marks the annotations as the server's claims, listing only what it said", () => {
    render(<ToolDetail {...base} />);
    const claims = screen.getByRole("region", { name: "Claims by files" });
    expect(within(claims).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "May change its environment",
      "May delete or overwrite things",
    ]);
  });

  it("shows no claims when the server made none", () => {
    render(<ToolDetail {...base} tool={{ ...tool, annotations: { title: "Remover" } }} />);
    expect(screen.queryByRole("region", { name: /Claims/ })).toBeNull();
  });

  it("falls back to the annotation title, then the name", () => {
    const { rerender } = render(<ToolDetail {...base} tool={{ name: "rm", inputSchema: { type: "object" }, annotations: { title: "Remove" } }} />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Remove");
    rerender(<ToolDetail {...base} tool={{ name: "rm", inputSchema: { type: "object" } }} />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("rm");
  });

  it("invokes on request", async () => {
    const onInvoke = vi.fn();
    render(<ToolDetail {...base} onInvoke={onInvoke} />);
    await userEvent.click(screen.getByRole("button", { name: "Invoke" }));
    expect(onInvoke).toHaveBeenCalledOnce();
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("invokes on Enter in a one-line field, not in a multi-line one, a handled one or while busy", async () => {
    const user = userEvent.setup();
    const onInvoke = vi.fn();
    const form = (
      <>
        <label>
          Path <input />
        </label>
        <label>
          Notes <textarea />
        </label>
        <label>
          Picked <input onKeyDown={(e) => e.key === "Enter" && e.preventDefault()} />
        </label>
      </>
    );
    const { rerender } = render(<ToolDetail {...base} form={form} onInvoke={onInvoke} />);
    await user.type(screen.getByRole("textbox", { name: "Path" }), "/tmp/x{Enter}");
    expect(onInvoke).toHaveBeenCalledOnce();
    await user.type(screen.getByRole("textbox", { name: "Notes" }), "one{Enter}two");
    await user.type(screen.getByRole("textbox", { name: "Picked" }), "a{Enter}");
    await user.type(screen.getByRole("textbox", { name: "Path" }), "{Shift>}{Enter}{/Shift}");
    expect(onInvoke).toHaveBeenCalledOnce();
    rerender(<ToolDetail {...base} form={form} onInvoke={onInvoke} busy />);
    await user.type(screen.getByRole("textbox", { name: "Path" }), "{Enter}");
    expect(onInvoke).toHaveBeenCalledOnce();
  });

  it("while busy, shows the progress and offers Cancel instead of another call", async () => {
    const onCancel = vi.fn();
    render(<ToolDetail {...base} busy progress={{ progress: 3, total: 10, message: "Scanning" }} onCancel={onCancel} />);
    expect((screen.getByRole("button", { name: "Invoke" }) as HTMLButtonElement).disabled).toBe(true);
    const bar = screen.getByRole("progressbar", { name: "Progress" });
    expect(bar.getAttribute("value")).toBe("3");
    expect(bar.getAttribute("max")).toBe("10");
    expect(screen.getByRole("status").textContent).toBe("Scanning (3 of 10)");
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it("shows an indeterminate bar before any progress arrives", () => {
    render(<ToolDetail {...base} busy progress={null} />);
    expect(screen.getByRole("progressbar").hasAttribute("value")).toBe(false);
    expect(screen.getByRole("status").textContent).toBe("Working…");
  });

  it("shows the result, or the error", () => {
    const { rerender } = render(
      <ToolDetail {...base} result={{ isError: true, content: [{ type: "text", text: "no such file" }] }} />,
    );
    const result = screen.getByRole("region", { name: "Tool result" });
    expect(within(result).getByRole("alert").textContent).toBe("The tool reported an error");
    expect(within(result).getByText("no such file")).toBeTruthy();

    rerender(<ToolDetail {...base} error="The server is not running" />);
    expect(screen.queryByRole("region", { name: "Tool result" })).toBeNull();
    expect(screen.getByRole("alert").textContent).toBe("The server is not running");
  });
});

describe("ToolDetail in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the tool, leaving what its server says as it is", () => {
    act(() => applyLanguage("zh-CN"));
    render(<ToolDetail {...base} tool={{ ...tool, execution: { taskSupport: "optional" } }} asTask={false} onAsTask={() => {}} />);
    const detail = screen.getByRole("article", { name: "Delete a file" });
    expect(within(detail).getByText("的工具", { exact: false }).textContent).toBe("files 的工具");
    expect(within(detail).getByText("for good").tagName).toBe("STRONG");
    const claims = screen.getByRole("region", { name: "files 的声明" });
    expect(within(claims).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["可能更改其所在环境", "可能删除或覆盖内容"]);
    expect(within(claims).getByText("以上为服务器自述，应用无法核实。")).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: /在其服务器上以任务方式运行/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: "调用" })).toBeTruthy();
  });

  it("says a call under way, its progress and its cancel in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    const { rerender } = render(<ToolDetail {...base} busy progress={{ progress: 1500, total: 3000 }} onCancel={() => {}} />);
    expect(screen.getByRole("progressbar", { name: "进度" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("进行中…（1,500 / 3,000）");
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();
    rerender(<ToolDetail {...base} busy progress={{ progress: 7, message: "Scanning" }} />);
    expect(screen.getByRole("status").textContent).toBe("Scanning（7）");
    rerender(<ToolDetail {...base} tool={{ ...tool, execution: { taskSupport: "required" } }} error="demo needs a page first" onRetry={() => {}} />);
    expect(screen.getByText("在其服务器上以任务方式运行：运行期间及结束后，“任务”视图都会列出它。")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("demo needs a page first");
    expect(screen.getByRole("button", { name: "重试" })).toBeTruthy();
  });
});

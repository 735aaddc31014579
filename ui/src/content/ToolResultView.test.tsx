import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import { ToolResultView } from "./ToolResultView";

afterEach(cleanup);

describe("ToolResultView", () => {
  it("shows a successful result's content without any error", () => {
    render(<ToolResultView result={{ content: [{ type: "text", text: "42 files" }] }} />);
    const result = screen.getByRole("region", { name: "Tool result" });
    expect(within(result).getByText("42 files")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says plainly when the tool reported an error", () => {
    render(<ToolResultView result={{ isError: true, content: [{ type: "text", text: "disk full" }] }} />);
    expect(screen.getByRole("alert").textContent).toBe("The tool reported an error");
    expect(screen.getByText("disk full")).toBeTruthy();
  });

  it("keeps structured content in a collapsible section of pretty JSON", async () => {
    render(
      <ToolResultView
        result={{ content: [{ type: "text", text: '{"temperature":21}' }], structuredContent: { temperature: 21 } }}
      />,
    );
    const summary = screen.getByText("Structured content");
    const details = summary.closest("details");
    expect(details?.open).toBe(false);
    await userEvent.click(summary);
    expect(details?.open).toBe(true);
    expect(within(details as HTMLElement).getByText(/"temperature": 21/).textContent).toBe('{\n  "temperature": 21\n}');
  });

  it("opens structured content when it is all the tool returned", () => {
    render(<ToolResultView result={{ content: [], structuredContent: { ok: true } }} />);
    expect(screen.getByText("The tool returned no content.")).toBeTruthy();
    expect(screen.getByText("Structured content").closest("details")?.open).toBe(true);
  });

  it("hides _meta behind a disclosure", () => {
    render(<ToolResultView result={{ content: [], _meta: { traceId: "abc" } }} />);
    const details = screen.getByText("Metadata (_meta)").closest("details");
    expect(details?.open).toBe(false);
    expect(details?.textContent).toContain('"traceId": "abc"');
  });
});

describe("ToolResultView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says in Chinese what the tool returned, its content as sent", () => {
    act(() => applyLanguage("zh-CN"));
    render(<ToolResultView result={{ isError: true, content: [], structuredContent: { ok: false }, _meta: { a: 1 } }} />);
    expect(screen.getByRole("region", { name: "工具结果" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("工具报告了错误");
    expect(screen.getByText("工具没有返回任何内容。")).toBeTruthy();
    expect(screen.getByText("结构化内容").closest("details")?.open).toBe(true);
    expect(screen.getByText("元数据（_meta）")).toBeTruthy();
  });

  it("changes language with the window", () => {
    render(<ToolResultView result={{ content: [{ type: "text", text: "disk full" }] }} />);
    expect(screen.getByRole("region", { name: "Tool result" })).toBeTruthy();
    act(() => applyLanguage("zh-CN"));
    expect(screen.getByRole("region", { name: "工具结果" })).toBeTruthy();
    expect(screen.getByText("disk full")).toBeTruthy();
  });
});

import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { ImportSummaryView } from "./ImportSummaryView";

afterEach(cleanup);

describe("ImportSummaryView", () => {
  it("says what was imported, under which name, which secrets went to the keyring, and what was skipped and why", async () => {
    const onDone = vi.fn();
    render(
      <ImportSummaryView
        summary={{
          imported: [
            { name: "github-2", from: "github", secrets: ["github-2/env/GITHUB_TOKEN"] },
            { name: "memory", from: "memory", secrets: [] },
          ],
          skipped: [{ name: "files", reason: { kind: "notSelected" } }],
        }}
        onDone={onDone}
      />,
    );
    const imported = screen.getByRole("list", { name: "Imported (2)" });
    const [github, memory] = within(imported).getAllByRole("listitem") as [HTMLElement, HTMLElement];
    expect(github.textContent).toBe("github-2renamed from github Secrets moved to the OS keyring: github-2/env/GITHUB_TOKEN");
    expect(memory.textContent).toBe("memory");
    expect(within(screen.getByRole("list", { name: "Skipped (1)" })).getByRole("listitem").textContent).toBe("files: not selected");
    await userEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("says so when nothing was imported", () => {
    render(<ImportSummaryView summary={{ imported: [], skipped: [] }} onDone={vi.fn()} />);
    expect(screen.getByText("No server was imported.")).toBeTruthy();
    expect(screen.queryByRole("list", { name: /Skipped/ })).toBeNull();
  });
});

describe("ImportSummaryView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says in Chinese what was imported, renamed, moved and skipped", () => {
    act(() => applyLanguage("zh-CN"));
    render(
      <ImportSummaryView
        summary={{
          imported: [
            { name: "github-2", from: "github", secrets: ["github-2/env/GITHUB_TOKEN"] },
            { name: "memory", from: "memory", secrets: [] },
          ],
          skipped: [{ name: "files", reason: { kind: "notSelected" } }],
        }}
        onDone={vi.fn()}
      />,
    );
    expect(screen.getByRole("heading", { name: "导入完成" })).toBeTruthy();
    const [github] = within(screen.getByRole("list", { name: "已导入（2）" })).getAllByRole("listitem") as [HTMLElement];
    expect(github.textContent).toBe("github-2由 github 重命名 已移到系统密钥环的机密：github-2/env/GITHUB_TOKEN");
    expect(within(screen.getByRole("list", { name: "已跳过（1）" })).getByRole("listitem").textContent).toBe("files：未选中");
    expect(screen.getByRole("button", { name: "完成" })).toBeTruthy();
  });

  it("says in Chinese when nothing was imported", () => {
    act(() => applyLanguage("zh-CN"));
    render(<ImportSummaryView summary={{ imported: [], skipped: [] }} onDone={vi.fn()} />);
    expect(screen.getByRole("heading", { name: "已导入（0）" })).toBeTruthy();
    expect(screen.getByText("没有导入任何服务器。")).toBeTruthy();
  });
});

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
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
          skipped: [{ name: "files", reason: "not selected" }],
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

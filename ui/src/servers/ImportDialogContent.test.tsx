import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ImportDialogContent, type ImportDialogContentProps } from "./ImportDialogContent";

afterEach(cleanup);

const candidates: ImportDialogContentProps["candidates"] = [
  {
    source: "Claude Desktop",
    path: "/home/ada/.config/Claude/claude_desktop_config.json",
    servers: [
      { name: "files", target: "npx -y @modelcontextprotocol/server-filesystem /home/ada", conflict: true },
      { name: "github", target: "npx -y @modelcontextprotocol/server-github", conflict: false },
      { name: "memory", target: "npx -y @modelcontextprotocol/server-memory", conflict: false },
    ],
    warnings: ["server \"broken\" has neither a command nor a URL"],
  },
  {
    source: "Cursor",
    path: "/home/ada/.cursor/mcp.json",
    servers: [{ name: "docs", target: "https://docs.example/mcp", conflict: false }],
  },
];

function setup(overrides: Partial<ImportDialogContentProps> = {}) {
  const props: ImportDialogContentProps = {
    candidates,
    onImport: vi.fn(),
    onCancel: vi.fn(),
    customPath: "",
    onCustomPath: vi.fn(),
    onLoadCustom: vi.fn(),
    ...overrides,
  };
  const view = render(<ImportDialogContent {...props} />);
  return { props, view, user: userEvent.setup() };
}

describe("ImportDialogContent", () => {
  it("offers each file's servers, all but the configured ones checked", () => {
    setup();
    expect(screen.getByRole("heading", { name: "Import servers" })).toBeTruthy();
    const claude = screen.getByRole("group", { name: "Claude Desktop" });
    expect(claude.textContent).toContain("/home/ada/.config/Claude/claude_desktop_config.json");
    expect(claude.textContent).toContain('server "broken" has neither a command nor a URL');
    const files = within(claude).getByRole("checkbox", { name: "files" }) as HTMLInputElement;
    expect([files.checked, files.disabled]).toEqual([false, true]);
    expect(within(claude).getByRole("checkbox", { name: "files", description: /already configured: skipped/ })).toBe(files);
    expect((within(claude).getByRole("checkbox", { name: "github" }) as HTMLInputElement).checked).toBe(true);
  });

  it("imports the servers left checked, from their own file", async () => {
    const { props, user } = setup();
    const claude = screen.getByRole("group", { name: "Claude Desktop" });
    await user.click(within(claude).getByRole("checkbox", { name: "memory" }));
    await user.click(within(claude).getByRole("button", { name: "Import selected from Claude Desktop" }));
    expect(props.onImport).toHaveBeenCalledExactlyOnceWith("Claude Desktop", ["github"]);

    await user.click(screen.getByRole("button", { name: "Import selected from Cursor" }));
    expect(props.onImport).toHaveBeenLastCalledWith("Cursor", ["docs"]);

    await user.click(within(claude).getByRole("checkbox", { name: "github" }));
    expect((within(claude).getByRole("button", { name: "Import selected from Claude Desktop" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("loads a file the person names, and cancels", async () => {
    const { props, user, view } = setup({ candidates: [] });
    expect(screen.getByText(/No configuration of Claude Desktop, VS Code or Cursor was found/)).toBeTruthy();
    const path = screen.getByRole("textbox", { name: "Another configuration file" });
    await user.type(path, "x");
    expect(props.onCustomPath).toHaveBeenCalledWith("x");
    expect((screen.getByRole("button", { name: "Load" }) as HTMLButtonElement).disabled).toBe(true);

    view.rerender(<ImportDialogContent {...props} customPath="/tmp/mcp.json" />);
    await user.type(path, "{Enter}");
    expect(props.onLoadCustom).toHaveBeenCalledOnce();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(props.onCancel).toHaveBeenCalledOnce();
  });
});

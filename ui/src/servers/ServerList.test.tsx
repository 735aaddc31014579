import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerList, type ServerListProps } from "./ServerList";
import type { ServerSummary_Serialize as ServerSummary } from "../bindings";

afterEach(cleanup);

const servers: ServerSummary[] = [
  {
    name: "files",
    enabled: true,
    transport: "stdio",
    target: "npx -y @modelcontextprotocol/server-filesystem /tmp",
    state: { state: "running", protocolVersion: "2025-11-25", serverName: "files", stateless: false, whyRevision: "" },
    sinceMs: 0,
    sandbox: { network: false },
  },
  { name: "remote", enabled: false, transport: "http", target: "https://mcp.example/mcp", state: null, sinceMs: 0, sandbox: null },
];

function setup(overrides: Partial<ServerListProps> = {}) {
  const props: ServerListProps = {
    servers,
    selected: "files",
    onSelect: vi.fn(),
    onToggleEnabled: vi.fn(),
    onRestart: vi.fn(),
    onSignIn: vi.fn(),
    onRemove: vi.fn(),
    onAdd: vi.fn(),
    onImport: vi.fn(),
    ...overrides,
  };
  render(<ServerList {...props} />);
  return props;
}

const row = (name: string) => screen.getByRole("button", { name }).closest("li") as HTMLElement;

describe("ServerList", () => {
  it("offers Sign in on a server that needs sign-in, and only there", async () => {
    const guarded: ServerSummary = {
      name: "tracker",
      enabled: true,
      transport: "http",
      target: "https://mcp.tracker.example/mcp",
      state: { state: "auth_required", detail: "tracker needs sign-in", tokenInstead: false },
      sinceMs: 0,
      sandbox: null,
    };
    const props = setup({ servers: [...servers, guarded] });
    expect(screen.getByRole("button", { name: "tracker", description: /Sign-in needed/ })).toBeTruthy();
    await userEvent.click(within(row("tracker")).getByRole("button", { name: "Sign in to tracker" }));
    expect(props.onSignIn).toHaveBeenCalledWith("tracker");
    expect(within(row("files")).queryByRole("button", { name: /Sign in/ })).toBeNull();
    expect(within(row("remote")).queryByRole("button", { name: /Sign in/ })).toBeNull();
  });

  it("shows each server with its target and state, and which one is selected", () => {
    setup();
    const files = screen.getByRole("button", {
      name: "files",
      description: "stdio sandboxed npx -y @modelcontextprotocol/server-filesystem /tmp Running",
    });
    expect(files.getAttribute("aria-current")).toBe("true");
    expect(within(row("files")).getByText("sandboxed").getAttribute("title")).toMatch(/folders you share with it; no network$/);
    const remote = screen.getByRole("button", { name: "remote", description: "HTTP https://mcp.example/mcp Disabled" });
    expect(remote.getAttribute("aria-current")).toBeNull();
  });

  it("selects, toggles, restarts, adds and imports", async () => {
    const user = userEvent.setup();
    const props = setup();
    await user.click(screen.getByRole("button", { name: "remote" }));
    expect(props.onSelect).toHaveBeenCalledWith("remote");

    await user.click(within(row("files")).getByRole("switch", { name: /Enabled/ }));
    expect(props.onToggleEnabled).toHaveBeenCalledWith("files", false);
    await user.click(within(row("remote")).getByRole("switch", { name: /Enabled/ }));
    expect(props.onToggleEnabled).toHaveBeenCalledWith("remote", true);

    await user.click(screen.getByRole("button", { name: "Restart files" }));
    expect(props.onRestart).toHaveBeenCalledWith("files");
    expect((screen.getByRole("button", { name: "Restart remote" }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole("button", { name: "Add server" }));
    await user.click(screen.getByRole("button", { name: "Import…" }));
    expect(props.onAdd).toHaveBeenCalledOnce();
    expect(props.onImport).toHaveBeenCalledOnce();
  });

  it("asks before removing, and keeping changes nothing", async () => {
    const user = userEvent.setup();
    const props = setup();
    await user.click(screen.getByRole("button", { name: "Remove files" }));
    const question = screen.getByRole("group", { name: "Remove files?" });
    expect(question.textContent).toContain("keyring secrets");
    expect(props.onRemove).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(within(question).getByRole("button", { name: "Keep" }));

    await user.click(within(question).getByRole("button", { name: "Keep" }));
    expect(screen.queryByRole("group", { name: "Remove files?" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Remove files" }));

    await user.click(screen.getByRole("button", { name: "Remove files" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("group", { name: "Remove files?" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Remove files" }));
    await user.click(screen.getByRole("button", { name: "Yes, remove files" }));
    expect(props.onRemove).toHaveBeenCalledExactlyOnceWith("files");
  });

  it("says so when there is nothing configured", () => {
    setup({ servers: [] });
    expect(screen.getByText("No servers yet.")).toBeTruthy();
  });
});

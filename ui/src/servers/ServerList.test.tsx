import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerList, type ServerListProps } from "./ServerList";
import type { ServerSummary_Serialize as ServerSummary } from "../bindings";
import { applyLanguage } from "../i18n";

afterEach(cleanup);

const servers: ServerSummary[] = [
  {
    name: "files",
    enabled: true,
    transport: "stdio",
    target: "npx -y @modelcontextprotocol/server-filesystem /tmp",
    state: { state: "running", protocolVersion: "2025-11-25", serverName: "files", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } },
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
      state: { state: "auth_required", detail: { kind: "asksForAuthorization", server: "tracker", again: false }, tokenInstead: false },
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

describe("ServerList in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the servers, their targets and names as given", async () => {
    act(() => applyLanguage("zh-CN"));
    const user = userEvent.setup();
    const guarded: ServerSummary = {
      name: "tracker",
      enabled: true,
      transport: "http",
      target: "https://mcp.tracker.example/mcp",
      state: { state: "auth_required", detail: { kind: "asksForAuthorization", server: "tracker", again: false }, tokenInstead: false },
      sinceMs: 0,
      sandbox: null,
    };
    const props = setup({ servers: [...servers, guarded] });
    expect(screen.getByRole("region", { name: "已配置的服务器" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "添加服务器" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "导入…" })).toBeTruthy();
    expect(
      screen.getByRole("button", { name: "files", description: "stdio 沙箱 npx -y @modelcontextprotocol/server-filesystem /tmp 运行中" }),
    ).toBeTruthy();
    expect(within(row("files")).getByText("沙箱").getAttribute("title")).toBe("可以看到系统、它自己的程序以及你与它共享的文件夹；不能联网");
    expect(screen.getByRole("button", { name: "remote", description: "HTTP https://mcp.example/mcp 已停用" })).toBeTruthy();
    expect(within(row("files")).getByRole("switch", { name: "启用（files）" })).toBeTruthy();
    expect(within(row("tracker")).getByText("需要登录").closest("[title]")?.getAttribute("title")).toBe("需要登录：tracker 要求授权");
    await user.click(within(row("tracker")).getByRole("button", { name: "登录 tracker" }));
    expect(props.onSignIn).toHaveBeenCalledWith("tracker");
    expect((screen.getByRole("button", { name: "重启 remote" }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole("button", { name: "移除 files" }));
    const question = screen.getByRole("group", { name: "移除 files？" });
    expect(question.querySelector("p")?.textContent).toBe("移除 files？它的设置、密钥环中的机密和日志都会被删除。");
    expect(question.querySelector("strong")?.textContent).toBe("files");
    expect(document.activeElement).toBe(within(question).getByRole("button", { name: "保留" }));
    await user.click(within(question).getByRole("button", { name: "是，移除 files" }));
    expect(props.onRemove).toHaveBeenCalledExactlyOnceWith("files");
  });

  it("says in Chinese when there is nothing configured", () => {
    act(() => applyLanguage("zh-CN"));
    setup({ servers: [] });
    expect(screen.getByText("还没有服务器。")).toBeTruthy();
  });
});

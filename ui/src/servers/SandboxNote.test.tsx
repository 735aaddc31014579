import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { commands } from "../bindings";
import { SandboxNote } from "./SandboxNote";

vi.mock("../bindings", () => ({
  commands: { setSandbox: vi.fn(), sandboxView: vi.fn() },
  events: {
    hostUpdate: { listen: vi.fn(() => Promise.resolve(() => {})) },
    hostResync: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

afterEach(cleanup);
beforeEach(() => {
  vi.mocked(commands.sandboxView).mockResolvedValue({
    programs: ["/opt/notes-server"],
    roots: [],
    readOnly: [],
    caches: [],
    network: false,
    engine: "bubblewrap",
    cannot: null,
  });
});

describe("SandboxNote", () => {
  it("says what a server outside the sandbox could reach, and puts it in without the network", async () => {
    vi.mocked(commands.setSandbox).mockResolvedValue(null);
    render(<SandboxNote server="notes" sandbox={null} />);
    expect(screen.getByText(/Runs with all your rights/)).toBeTruthy();
    expect(await screen.findByText("/opt/notes-server")).toBeTruthy();
    expect(screen.getByText("Bubblewrap builds its sandbox.")).toBeTruthy();
    expect(screen.getByText("no folder")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Sandbox this server" }));
    expect(commands.setSandbox).toHaveBeenCalledExactlyOnceWith("notes", {
      network: false,
    });
  });

  it("says what a sandboxed server may reach, and shows the host's refusal", async () => {
    vi.mocked(commands.sandboxView).mockResolvedValue({
      programs: [],
      roots: ["/home/me/project"],
      readOnly: ["/home/me/papers"],
      caches: ["/home/me/.cache/switchboard/sandbox/packages/npx/notes-server"],
      network: true,
      engine: "landlock",
      cannot: null,
    });
    render(<SandboxNote server="notes" sandbox={{ network: true }} />);
    expect(screen.getByText(/Runs in the sandbox, with the network/)).toBeTruthy();
    expect(await screen.findByText("/home/me/project")).toBeTruthy();
    expect(screen.getByText("Shared with it (read only)")).toBeTruthy();
    expect(screen.getByText(/Landlock builds its sandbox here/)).toBeTruthy();
    expect(screen.getByText("/home/me/papers")).toBeTruthy();
    expect(screen.getByText("the system's own")).toBeTruthy();
    expect(screen.getByText("/home/me/.cache/switchboard/sandbox/packages/npx/notes-server")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Sandbox this server" })).toBeNull();
    cleanup();
    vi.mocked(commands.setSandbox).mockRejectedValue({
      code: "invalid",
      message: "bwrap is missing",
    });
    render(<SandboxNote server="notes" sandbox={null} />);
    await userEvent.click(screen.getByRole("button", { name: "Sandbox this server" }));
    expect((await screen.findByRole("alert")).textContent).toContain("bwrap is missing");
  });

  it("says why no sandbox can run here and how to fix it", async () => {
    vi.mocked(commands.sandboxView).mockResolvedValue({
      programs: [],
      roots: [],
      readOnly: [],
      caches: [],
      network: false,
      engine: null,
      cannot: { kind: "noSandbox", why: { kind: "landlockCannot", why: "the kernel has no Landlock" } },
    });
    render(<SandboxNote server="notes" sandbox={{ network: false }} />);
    expect(await screen.findByText("the sandbox is set to Landlock, which cannot run here: the kernel has no Landlock")).toBeTruthy();
    expect(screen.queryByText(/builds its sandbox/)).toBeNull();
  });
});

describe("SandboxNote in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says in Chinese what a server outside the sandbox could reach", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<SandboxNote server="notes" sandbox={null} />);
    expect(screen.getByRole("region", { name: "沙箱" })).toBeTruthy();
    expect(screen.getByText(/^以你的全部权限运行：/)).toBeTruthy();
    expect(await screen.findByText("/opt/notes-server")).toBeTruthy();
    expect(screen.getByText("它的程序（只读）")).toBeTruthy();
    expect(screen.getByText("与它共享（可读写）")).toBeTruthy();
    expect(screen.getByText("没有文件夹")).toBeTruthy();
    expect(screen.getByText("由 Bubblewrap 构建它的沙箱。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "将这个服务器放入沙箱" })).toBeTruthy();
  });

  it("says in Chinese what a sandboxed server may reach", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.sandboxView).mockResolvedValue({
      programs: [],
      roots: [],
      readOnly: ["/home/me/papers"],
      caches: ["/home/me/.cache/pkg"],
      network: false,
      engine: "landlock",
      cannot: null,
    });
    render(<SandboxNote server="notes" sandbox={{ network: false }} />);
    expect(screen.getByText("在沙箱中运行，无法访问网络，主目录为空，/tmp 为私有。它能看到系统以及：")).toBeTruthy();
    expect(await screen.findByText("/home/me/papers")).toBeTruthy();
    expect(screen.getByText("系统自带的程序")).toBeTruthy();
    expect(screen.getByText("与它共享（只读）")).toBeTruthy();
    expect(screen.getByText("它的软件包，启动前通过网络获取（可读写）")).toBeTruthy();
    expect(screen.getByText(/^这里由 Landlock 构建它的沙箱/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "将这个服务器放入沙箱" })).toBeNull();
  });
});

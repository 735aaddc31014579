import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type ServerSummary_Serialize as ServerSummary } from "../bindings";
import { applyLanguage } from "../i18n";
import { ServersView } from "./ServersView";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({
    servers: vi.fn(),
    serverInfo: vi.fn(() => Promise.resolve(null)),
    signedIn: vi.fn(() => Promise.resolve(null)),
    signInWaiting: vi.fn(() => Promise.resolve(false)),
    serverLog: vi.fn(() => Promise.resolve([])),
    serverTools: vi.fn(() => Promise.resolve([])),
  }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const remote: ServerSummary = {
  name: "remote",
  enabled: true,
  transport: "http",
  target: "https://mcp.example/mcp",
  state: null,
  sinceMs: 0,
  sandbox: null,
};

describe("ServersView", () => {
  it("says how to begin when no server is configured", async () => {
    vi.mocked(commands.servers).mockResolvedValue([]);
    render(<ServersView />);
    expect(await screen.findByText("No servers yet: add one, or import them from another app.")).toBeTruthy();
    expect(screen.getByText("No servers yet.")).toBeTruthy();
  });

  it("shows the selected server with a way to edit it", async () => {
    vi.mocked(commands.servers).mockResolvedValue([remote]);
    render(<ServersView />);
    const detail = screen.getByRole("region", { name: "Server" });
    expect(await within(detail).findByRole("button", { name: "Edit remote" })).toBeTruthy();
    expect(within(detail).getByRole("heading", { name: "remote" })).toBeTruthy();
  });
});

describe("ServersView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says in Chinese how to begin when no server is configured", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.servers).mockResolvedValue([]);
    render(<ServersView />);
    expect(await screen.findByText("还没有服务器：可以添加一个，或从其他应用导入。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "添加服务器" })).toBeTruthy();
  });

  it("offers in Chinese to edit the selected server, named as configured", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.servers).mockResolvedValue([remote]);
    render(<ServersView />);
    const detail = screen.getByRole("region", { name: "服务器" });
    expect(await within(detail).findByRole("button", { name: "编辑 remote" })).toBeTruthy();
    expect(await within(detail).findByText("还没有日志。")).toBeTruthy();
    expect(within(detail).getByText("尚未握手：服务器运行后会显示详细信息。")).toBeTruthy();
  });
});

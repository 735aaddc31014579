import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { applyLanguage, format } from "../i18n";
import { AgentsView } from "./AgentsView";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({
    agents: vi.fn(),
    agentCalls: vi.fn(),
    agentAnswers: vi.fn(() => Promise.resolve({ sampling: false, elicitation: false })),
    agentSnippet: vi.fn((name: string) => Promise.resolve(`{"args": ["bridge", "--agent", "${name}"]}`)),
    agentHttpSnippet: vi.fn((name: string) => Promise.resolve(`{"url": "http://127.0.0.1:47321/mcp", "token of": "${name}"}`)),
    renewAgentToken: vi.fn(() => Promise.resolve(null)),
    gatewayStatus: vi.fn(() => Promise.resolve({ url: "http://127.0.0.1:47321/mcp", problem: null })),
    saveAgent: vi.fn(() => Promise.resolve(null)),
    removeAgent: vi.fn(() => Promise.resolve(null)),
    disconnectAgent: vi.fn(() => Promise.resolve(null)),
  }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const call = {
  id: 7,
  atMs: 1_700_000_000_000,
  kind: "tool_call",
  server: "files",
  subject: "write_file",
  decision: "denied",
  decidedBy: { kind: "person" } as const,
  outcome: { kind: "unknown" } as const,
  durationMs: null,
  askedBy: "agent Claude Code",
  detail: {},
  given: "once" as const,
};

describe("AgentsView", () => {
  it("lists each agent with its servers, its recent calls and the entry for its configuration", async () => {
    vi.mocked(commands.agents).mockResolvedValue([
      { name: "Claude Code", servers: null, toolsOff: 0, connected: 1 },
      { name: "Cursor", servers: ["demo"], toolsOff: 2, connected: 0 },
    ]);
    vi.mocked(commands.agentCalls).mockImplementation((name) => Promise.resolve(name === "Claude Code" ? [call] : []));
    render(<AgentsView />);
    const claude = within(await screen.findByRole("listitem", { name: "Claude Code" }));
    expect(claude.getByText("every server")).toBeTruthy();
    expect(claude.getByText("Connected")).toBeTruthy();
    const calls = await claude.findByRole("table", { name: "Recent calls of Claude Code" });
    const cells = within(calls)
      .getAllByRole("cell")
      .map((c) => c.textContent);
    expect(cells.slice(1)).toEqual(["files", "write_file", "denied", ""]);
    expect((await claude.findByLabelText("Configuration for Claude Code")).textContent).toContain('"--agent", "Claude Code"');
    const cursor = within(screen.getByRole("listitem", { name: "Cursor" }));
    expect(cursor.getByText("servers: demo, 2 tools turned off for it")).toBeTruthy();
    expect(cursor.getByText("not connected")).toBeTruthy();
    expect(cursor.queryByRole("button", { name: "Disconnect Cursor" })).toBeNull();
    expect(await cursor.findByText("Cursor has made no call yet.")).toBeTruthy();
    expect(commands.agentCalls).toHaveBeenCalledWith("Cursor", 10);
  });

  it("adds an agent by name, refuses a name taken, and removes one", async () => {
    vi.mocked(commands.agents).mockResolvedValue([{ name: "Cursor", servers: null, toolsOff: 0, connected: 1 }]);
    vi.mocked(commands.agentCalls).mockResolvedValue([]);
    const user = userEvent.setup();
    render(<AgentsView />);
    const name = screen.getByRole("textbox", { name: "Agent name" });
    await screen.findByRole("listitem", { name: "Cursor" });
    await user.type(name, "Cursor");
    expect(screen.getByRole("button", { name: "Add agent" })).toHaveProperty("disabled", true);
    expect(screen.getByText("An agent of that name exists")).toBeTruthy();
    await user.clear(name);
    await user.type(name, "Claude Code{Enter}");
    expect(commands.saveAgent).toHaveBeenCalledWith("Claude Code", null);
    await user.click(screen.getByRole("button", { name: "Disconnect Cursor" }));
    expect(commands.disconnectAgent).toHaveBeenCalledWith("Cursor");
    await user.click(screen.getByRole("button", { name: "Remove Cursor" }));
    expect(commands.removeAgent).toHaveBeenCalledWith("Cursor");
  });

  it("says why an agent could not be added", async () => {
    vi.mocked(commands.agents).mockResolvedValue([]);
    vi.mocked(commands.saveAgent).mockRejectedValueOnce({ code: "invalid", message: "the name is too long" });
    const user = userEvent.setup();
    render(<AgentsView />);
    expect(await screen.findByText("No agent yet: an agent not added here is refused.")).toBeTruthy();
    await user.type(screen.getByRole("textbox", { name: "Agent name" }), "x{Enter}");
    expect((await screen.findByRole("alert")).textContent).toBe("the name is too long");
  });

  it("offers the entry over HTTP with the agent's token hidden until shown, and a new token that replaces it", async () => {
    vi.mocked(commands.agents).mockResolvedValue([{ name: "Cursor", servers: null, toolsOff: 0, connected: 0 }]);
    vi.mocked(commands.agentCalls).mockResolvedValue([]);
    const entry = (token: string) => `{"headers": {"Authorization": "Bearer ${token}"}}`;
    vi.mocked(commands.agentHttpSnippet).mockResolvedValueOnce(entry("sb-first")).mockResolvedValueOnce(entry("sb-second"));
    const user = userEvent.setup();
    render(<AgentsView />);
    const cursor = within(await screen.findByRole("listitem", { name: "Cursor" }));
    const shown = await cursor.findByLabelText("Configuration for Cursor over HTTP");
    expect(shown.textContent).toBe(entry("••••••••••••"));
    await user.click(cursor.getByRole("button", { name: "Show the token of Cursor" }));
    expect(shown.textContent).toBe(entry("sb-first"));
    await user.click(cursor.getByRole("button", { name: "New token for Cursor" }));
    expect(commands.renewAgentToken).toHaveBeenCalledWith("Cursor");
    expect(await cursor.findByText(entry("sb-second"))).toBeTruthy();
    await user.click(cursor.getByRole("button", { name: "Hide the token of Cursor" }));
    expect(cursor.getByLabelText("Configuration for Cursor over HTTP").textContent).toBe(entry("••••••••••••"));
  });

  it("offers the bridge alone while Switchboard does not listen over HTTP, and says why", async () => {
    vi.mocked(commands.agents).mockResolvedValue([{ name: "Cursor", servers: null, toolsOff: 0, connected: 0 }]);
    vi.mocked(commands.agentCalls).mockResolvedValue([]);
    vi.mocked(commands.agentHttpSnippet).mockResolvedValue(null);
    const problem = { kind: "cannotListen" as const, error: "127.0.0.1:47321 is taken by another program" };
    vi.mocked(commands.gatewayStatus).mockResolvedValue({ url: null, problem });
    render(<AgentsView />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "agents cannot reach Switchboard over HTTP: 127.0.0.1:47321 is taken by another program.",
    );
    const cursor = within(await screen.findByRole("listitem", { name: "Cursor" }));
    expect(await cursor.findByLabelText("Configuration for Cursor")).toBeTruthy();
    expect(cursor.queryByLabelText("Configuration for Cursor over HTTP")).toBeNull();
  });
});

describe("AgentsView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the agents' own names, with plurals and the date as Chinese writes them", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.agents).mockResolvedValue([
      { name: "Claude Code", servers: null, toolsOff: 0, connected: 2 },
      { name: "Cursor", servers: ["demo", "files"], toolsOff: 1, connected: 0 },
    ]);
    vi.mocked(commands.agentCalls).mockImplementation((name) => Promise.resolve(name === "Claude Code" ? [call] : []));
    vi.mocked(commands.agentHttpSnippet).mockResolvedValue('{"headers": {"Authorization": "Bearer sb-token"}}');
    render(<AgentsView />);
    expect(screen.getByRole("heading", { name: "已添加的智能体" })).toBeTruthy();
    expect(screen.getByRole("form", { name: "添加智能体" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "智能体名称" })).toBeTruthy();
    const claude = within(await screen.findByRole("listitem", { name: "Claude Code" }));
    expect(claude.getByText("所有服务器")).toBeTruthy();
    expect(claude.getByText("已连接（2 个连接）")).toBeTruthy();
    expect(claude.getByRole("button", { name: "断开 Claude Code" })).toBeTruthy();
    expect(claude.getByRole("button", { name: "移除 Claude Code" })).toBeTruthy();
    const calls = await claude.findByRole("table", { name: "Claude Code 的最近调用" });
    expect(within(calls).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["时间", "服务器", "工具", "决定", "结果"]);
    // The decision the host recorded, in Chinese.
    expect(within(calls).getByText("已拒绝")).toBeTruthy();
    expect(calls.querySelector("time")?.textContent).toBe(format.dateTime(call.atMs));
    expect(calls.querySelector("time")?.textContent).toMatch(/2023年11月/);
    expect(await claude.findByRole("button", { name: "显示 Claude Code 的令牌" })).toBeTruthy();
    expect(claude.getByLabelText("Claude Code 通过 HTTP 的配置")).toBeTruthy();
    const cursor = within(screen.getByRole("listitem", { name: "Cursor" }));
    expect(cursor.getByText("服务器：demo, files；已对它关闭 1 个工具")).toBeTruthy();
    expect(cursor.getByText("未连接")).toBeTruthy();
    expect(await cursor.findByText("Cursor 还没有进行过调用。")).toBeTruthy();
  });

  it("says in Chinese that no agent is added yet, and that a name is taken", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.agents).mockResolvedValue([]);
    const user = userEvent.setup();
    render(<AgentsView />);
    expect(await screen.findByText("还没有智能体：未在这里添加的智能体会被拒绝。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "添加智能体" })).toHaveProperty("disabled", true);
    vi.mocked(commands.agents).mockResolvedValue([{ name: "Cursor", servers: [], toolsOff: 0, connected: 1 }]);
    cleanup();
    render(<AgentsView />);
    const cursor = within(await screen.findByRole("listitem", { name: "Cursor" }));
    expect(cursor.getByText("服务器：无")).toBeTruthy();
    expect(cursor.getByText("已连接")).toBeTruthy();
    await user.type(screen.getByRole("textbox", { name: "智能体名称" }), "Cursor");
    expect(screen.getByText("已有同名的智能体")).toBeTruthy();
  });
});

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
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
  decidedBy: "user",
  outcome: "",
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
    const problem = "agents cannot reach Switchboard over HTTP: 127.0.0.1:47321 is taken by another program";
    vi.mocked(commands.gatewayStatus).mockResolvedValue({ url: null, problem });
    render(<AgentsView />);
    expect((await screen.findByRole("alert")).textContent).toBe(problem);
    const cursor = within(await screen.findByRole("listitem", { name: "Cursor" }));
    expect(await cursor.findByLabelText("Configuration for Cursor")).toBeTruthy();
    expect(cursor.queryByLabelText("Configuration for Cursor over HTTP")).toBeNull();
  });
});

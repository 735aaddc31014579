import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type AgentReach_Serialize as Reach, type AgentTool_Serialize as Tool } from "../bindings";
import { applyLanguage } from "../i18n";
import { AgentReach } from "./AgentReach";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({ agentReach: vi.fn(), saveAgent: vi.fn(), setAgentTool: vi.fn(), setAgentOffered: vi.fn() }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const tool = (name: string, on = true, offForEveryone = false): Tool => ({
  name,
  title: null,
  description: `${name} things`,
  on,
  offForEveryone,
  listed: true,
});

/** A host that keeps what the window saves, as the desk does. */
function host(start: Reach) {
  let held = start;
  vi.mocked(commands.agentReach).mockImplementation(() => Promise.resolve(held));
  vi.mocked(commands.saveAgent).mockImplementation((_name, servers) => {
    held = {
      everyServer: servers === null,
      servers: held.servers.map((s) => ({ ...s, reached: servers === null || servers.includes(s.server) })),
    };
    return Promise.resolve(null);
  });
  vi.mocked(commands.setAgentTool).mockImplementation((_name, server, name, on) => {
    held = {
      ...held,
      servers: held.servers.map((s) =>
        s.server === server ? { ...s, tools: s.tools.map((t) => (t.name === name ? { ...t, on } : t)) } : s,
      ),
    };
    return Promise.resolve(null);
  });
  vi.mocked(commands.setAgentOffered).mockImplementation((_name, server, of, on) => {
    held = { ...held, servers: held.servers.map((s) => (s.server === server ? { ...s, [of]: on } : s)) };
    return Promise.resolve(null);
  });
}

/** A server the agent reaches with its resources and prompts, and these tools. */
const server = (name: string, tools: Tool[], over: Partial<Reach["servers"][number]> = {}) => ({
  server: name,
  reached: true,
  running: true,
  tools,
  resources: true,
  prompts: true,
  ...over,
});

const twoServers: Reach = {
  everyServer: true,
  servers: [
    server("demo", [tool("echo"), tool("delete_note", true, true)]),
    server("files", [tool("write_file")]),
  ],
};

async function opened(user: ReturnType<typeof userEvent.setup>) {
  render(<AgentReach name="Cursor" />);
  expect(commands.agentReach).not.toHaveBeenCalled();
  await user.click(screen.getByText("Servers and tools Cursor may use"));
  await screen.findByRole("group", { name: "Servers Cursor reaches" });
}

describe("what one agent may use", () => {
  it("unchecks a server: the agent then reaches the others alone, and every server again on request", async () => {
    host(twoServers);
    const user = userEvent.setup();
    await opened(user);
    expect((screen.getByRole("radio", { name: /Every server/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole("checkbox", { name: "files" }));
    expect(commands.saveAgent).toHaveBeenCalledWith("Cursor", ["demo"]);
    await waitFor(() => expect((screen.getByRole("radio", { name: /Only the servers checked/ }) as HTMLInputElement).checked).toBe(true));
    expect((screen.getByRole("checkbox", { name: "files" }) as HTMLInputElement).checked).toBe(false);
    expect(within(screen.getByRole("group", { name: "files for Cursor" })).queryByRole("checkbox", { name: /write_file/ })).toBeNull();

    await user.click(screen.getByRole("radio", { name: /Every server/ }));
    expect(commands.saveAgent).toHaveBeenLastCalledWith("Cursor", null);
    await waitFor(() => expect((screen.getByRole("checkbox", { name: "files" }) as HTMLInputElement).checked).toBe(true));
  });

  it("turns a tool off for the agent alone, and shows a tool turned off for everyone as such", async () => {
    host(twoServers);
    const user = userEvent.setup();
    await opened(user);
    const demo = within(screen.getByRole("group", { name: "demo for Cursor" }));
    expect(demo.getByText("1 of 2 tools on: 1 turned off for everyone")).toBeTruthy();
    expect(within(screen.getByRole("group", { name: "files for Cursor" })).getByText("its one tool on")).toBeTruthy();
    await user.click(demo.getByRole("checkbox", { name: /echo/ }));
    expect(commands.setAgentTool).toHaveBeenCalledWith("Cursor", "demo", "echo", false);
    await demo.findByText("0 of 2 tools on: 1 turned off for Cursor, 1 turned off for everyone");
    expect((demo.getByRole("checkbox", { name: /echo/ }) as HTMLInputElement).checked).toBe(false);
    const everyone = demo.getByRole("checkbox", { name: /delete_note/ }) as HTMLInputElement;
    expect(everyone.checked).toBe(false);
    expect(everyone.disabled).toBe(true);
    expect(demo.getByText("(turned off for everyone in the server's settings)")).toBeTruthy();
  });

  it("turns a server's resources or prompts off for the agent alone", async () => {
    host(twoServers);
    const user = userEvent.setup();
    await opened(user);
    const files = within(screen.getByRole("group", { name: "files for Cursor" }));
    const resources = () => files.getByRole("checkbox", { name: "Its resources" }) as HTMLInputElement;
    expect(resources().checked).toBe(true);
    await user.click(resources());
    expect(commands.setAgentOffered).toHaveBeenCalledWith("Cursor", "files", "resources", false);
    await waitFor(() => expect(resources().checked).toBe(false));
    expect((files.getByRole("checkbox", { name: "Its prompts" }) as HTMLInputElement).checked).toBe(true);
    await user.click(files.getByRole("checkbox", { name: "Its prompts" }));
    expect(commands.setAgentOffered).toHaveBeenLastCalledWith("Cursor", "files", "prompts", false);
  });

  it("keeps a refusal in view and the switches as the host holds them", async () => {
    host(twoServers);
    vi.mocked(commands.setAgentTool).mockRejectedValue({
      code: "broken_config",
      message: "the configuration file must be fixed first",
    });
    const user = userEvent.setup();
    await opened(user);
    await user.click(screen.getByRole("checkbox", { name: /write_file/ }));
    expect((await screen.findByRole("alert")).textContent).toContain("must be fixed first");
    await waitFor(() => expect((screen.getByRole("checkbox", { name: /write_file/ }) as HTMLInputElement).checked).toBe(true));
  });

  it("says a server that does not run has no tools to show yet", async () => {
    host({ everyServer: false, servers: [server("demo", [], { running: false })] });
    const user = userEvent.setup();
    await opened(user);
    expect(screen.getByText("Not running: its tools show once it runs.")).toBeTruthy();
  });
});

describe("what one agent may use, in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("counts the tools on and says why the others are off in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    host({
      everyServer: false,
      servers: [
        server("demo", [tool("echo", false), tool("delete_note", true, true), tool("add")]),
        server("files", [tool("write_file")]),
        server("notes", [], { running: false, reached: false }),
      ],
    });
    const user = userEvent.setup();
    render(<AgentReach name="Cursor" />);
    await user.click(screen.getByText("Cursor 可以使用的服务器和工具"));
    const mode = await screen.findByRole("group", { name: "Cursor 可以访问的服务器" });
    expect((within(mode).getByRole("radio", { name: "仅限下面勾选的服务器" }) as HTMLInputElement).checked).toBe(true);
    expect(within(mode).getByRole("radio", { name: "所有服务器，包括以后添加的" })).toBeTruthy();
    const demo = within(screen.getByRole("group", { name: "Cursor 的 demo" }));
    expect(demo.getByText("3 个工具中 1 个已开启：1 个已对 Cursor 关闭，1 个已对所有人关闭")).toBeTruthy();
    expect(demo.getByText("（已在服务器设置中对所有人关闭）")).toBeTruthy();
    expect(demo.getByRole("checkbox", { name: "它的资源" })).toBeTruthy();
    expect(demo.getByRole("checkbox", { name: "它的提示词" })).toBeTruthy();
    expect(within(screen.getByRole("group", { name: "Cursor 的 files" })).getByText("唯一的工具已开启")).toBeTruthy();
    expect(screen.getByText("未运行：运行后才会显示它的工具。")).toBeTruthy();
  });
});

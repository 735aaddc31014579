import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type SetupPlan } from "../bindings";
import { applyLanguage } from "../i18n";
import { AgentSetup } from "./AgentSetup";

vi.mock("../bindings", () => ({
  commands: {
    agentSetupPlan: vi.fn(),
    agentSetupApply: vi.fn(),
  },
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const plan: SetupPlan = {
  app: "cursor",
  appName: "Cursor",
  agent: "My agent",
  path: "/home/me/.cursor/mcp.json",
  exists: true,
  current: '{\n  "mcpServers": {\n    "memory": {"command": "npx"}\n  }\n}\n',
  proposed: "…",
  diff: [
    "--- /home/me/.cursor/mcp.json",
    "+++ /home/me/.cursor/mcp.json",
    "@@ -1,5 +1,12 @@",
    " {",
    '   "mcpServers": {',
    '-    "memory": {"command": "npx"}',
    '+    "memory": {"command": "npx"},',
    '+    "switchboard": {',
    '+      "command": "/opt/switchboard/switchboard-cli",',
    "+    }",
    "   }",
    " }",
    "",
  ].join("\n"),
};

describe("AgentSetup", () => {
  it("shows the file and the exact change, writes it only when asked, then says what to do next", async () => {
    vi.mocked(commands.agentSetupPlan).mockResolvedValue(plan);
    vi.mocked(commands.agentSetupApply).mockResolvedValue(null);
    const user = userEvent.setup();
    render(<AgentSetup agent="My agent" />);
    const offered = within(screen.getByRole("group", { name: "Add My agent to an app" }))
      .getAllByRole("button")
      .map((b) => b.textContent);
    expect(offered).toEqual(["Add to Claude Code", "Add to Claude Desktop", "Add to Cursor", "Add to VS Code"]);
    await user.click(screen.getByRole("button", { name: "Add to Cursor" }));
    expect(commands.agentSetupPlan).toHaveBeenCalledWith("My agent", "cursor");
    const dialog = within(await screen.findByRole("dialog", { name: "Add Switchboard to Cursor" }));
    expect(dialog.getByText("/home/me/.cursor/mcp.json").tagName).toBe("CODE");
    expect(dialog.getByText(/This changes/)).toBeTruthy();
    const diff = dialog.getByLabelText("Change to /home/me/.cursor/mcp.json");
    expect(diff.textContent).toBe(plan.diff);
    const added = [...diff.querySelectorAll(".diff-added")].map((l) => l.textContent?.trim());
    expect(added).toContain('+    "switchboard": {');
    expect([...diff.querySelectorAll(".diff-removed")].map((l) => l.textContent?.trim())).toEqual([
      '-    "memory": {"command": "npx"}',
    ]);
    expect(commands.agentSetupApply).not.toHaveBeenCalled();
    await user.click(dialog.getByRole("button", { name: "Write the change" }));
    expect(commands.agentSetupApply).toHaveBeenCalledWith(plan);
    const done = within(await screen.findByRole("dialog", { name: "Switchboard added to Cursor" }));
    expect(done.getByRole("status").textContent).toBe("/home/me/.cursor/mcp.json now reaches Switchboard as My agent.");
    expect(done.getByText("Restart Cursor, or turn switchboard on in Cursor's MCP settings.")).toBeTruthy();
    await user.click(done.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("writes nothing when cancelled, and says when a file will be created", async () => {
    vi.mocked(commands.agentSetupPlan).mockResolvedValue({ ...plan, app: "vsCode", appName: "VS Code", exists: false });
    const user = userEvent.setup();
    render(<AgentSetup agent="My agent" />);
    await user.click(screen.getByRole("button", { name: "Add to VS Code" }));
    expect(commands.agentSetupPlan).toHaveBeenCalledWith("My agent", "vsCode");
    const dialog = within(await screen.findByRole("dialog", { name: "Add Switchboard to VS Code" }));
    expect(dialog.getByText(/This creates/)).toBeTruthy();
    await user.click(dialog.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(commands.agentSetupApply).not.toHaveBeenCalled();
  });

  it("says why there is nothing to write: set up already, or a file it cannot change", async () => {
    vi.mocked(commands.agentSetupPlan).mockRejectedValue({
      code: "invalid",
      message: 'Claude Code already reaches Switchboard as "My agent": /home/me/.claude.json holds that entry; there is nothing to write',
    });
    const user = userEvent.setup();
    render(<AgentSetup agent="My agent" />);
    await user.click(screen.getByRole("button", { name: "Add to Claude Code" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Add Switchboard to Claude Code" }));
    expect((await dialog.findByRole("alert")).textContent).toContain("already reaches Switchboard");
    expect(dialog.queryByRole("button", { name: "Write the change" })).toBeNull();
  });

  it("shows the change again when the file changed since it was shown", async () => {
    const changed = { ...plan, diff: "--- a\n+++ a\n@@ -1 +1 @@\n-{}\n+{ }\n" };
    vi.mocked(commands.agentSetupPlan).mockResolvedValueOnce(plan).mockResolvedValueOnce(changed);
    vi.mocked(commands.agentSetupApply).mockRejectedValueOnce({
      code: "invalid",
      message: "/home/me/.cursor/mcp.json changed since the change was shown; nothing was written: look at the change again",
    });
    const user = userEvent.setup();
    render(<AgentSetup agent="My agent" />);
    await user.click(screen.getByRole("button", { name: "Add to Cursor" }));
    await user.click(await screen.findByRole("button", { name: "Write the change" }));
    expect((await screen.findByRole("alert")).textContent).toContain("changed since the change was shown");
    await user.click(screen.getByRole("button", { name: "Show the change again" }));
    expect(await screen.findByText("+{ }")).toBeTruthy();
    expect(commands.agentSetupPlan).toHaveBeenCalledTimes(2);
  });
});

describe("AgentSetup in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("shows the file and the change in Chinese, the path within its sentence, then what is done", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.agentSetupPlan).mockResolvedValue(plan);
    vi.mocked(commands.agentSetupApply).mockResolvedValue(null);
    const user = userEvent.setup();
    render(<AgentSetup agent="My agent" />);
    const offered = within(screen.getByRole("group", { name: "将 My agent 添加到应用" }))
      .getAllByRole("button")
      .map((b) => b.textContent);
    expect(offered).toEqual(["添加到 Claude Code", "添加到 Claude Desktop", "添加到 Cursor", "添加到 VS Code"]);
    await user.click(screen.getByRole("button", { name: "添加到 Cursor" }));
    const dialog = await screen.findByRole("dialog", { name: "将 Switchboard 添加到 Cursor" });
    expect(within(dialog).getByText("身份为 My agent")).toBeTruthy();
    const path = within(dialog).getByText("/home/me/.cursor/mcp.json");
    expect(path.tagName).toBe("CODE");
    expect(path.parentElement?.textContent).toBe("这会修改 /home/me/.cursor/mcp.json，其中的其他内容保持不变：");
    expect(within(dialog).getByLabelText("对 /home/me/.cursor/mcp.json 的修改").textContent).toBe(plan.diff);
    expect(within(dialog).getByRole("button", { name: "取消" })).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "写入修改" }));
    const done = within(await screen.findByRole("dialog", { name: "已将 Switchboard 添加到 Cursor" }));
    expect(done.getByRole("status").textContent).toBe("/home/me/.cursor/mcp.json 现在以 My agent 的身份访问 Switchboard。");
    expect(done.getByText("重启 Cursor，或在 Cursor 的 MCP 设置中开启 switchboard。")).toBeTruthy();
    await user.click(done.getByRole("button", { name: "关闭" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("says in Chinese that a file will be created", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.agentSetupPlan).mockResolvedValue({ ...plan, exists: false });
    const user = userEvent.setup();
    render(<AgentSetup agent="My agent" />);
    await user.click(screen.getByRole("button", { name: "添加到 Cursor" }));
    const dialog = await screen.findByRole("dialog", { name: "将 Switchboard 添加到 Cursor" });
    expect(within(dialog).getByText("/home/me/.cursor/mcp.json").parentElement?.textContent).toBe(
      "这会创建 /home/me/.cursor/mcp.json：",
    );
  });
});

import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type ToolSwitch_Serialize as ToolSwitch } from "../bindings";
import { applyLanguage } from "../i18n";
import { ServerTools } from "./ServerTools";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({ serverTools: vi.fn(), setToolEnabled: vi.fn() }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const tool = (name: string, on: boolean, listed = true): ToolSwitch => ({
  name,
  title: null,
  description: `${name} things`,
  on,
  listed,
});

describe("a server's tool switches", () => {
  it("turns a tool off and shows what the host then holds", async () => {
    let held = [tool("echo", true), tool("delete_note", true)];
    vi.mocked(commands.serverTools).mockImplementation(() => Promise.resolve(held));
    vi.mocked(commands.setToolEnabled).mockImplementation((_server, name, on) => {
      held = held.map((t) => (t.name === name ? { ...t, on } : t));
      return Promise.resolve(null);
    });
    render(<ServerTools server="demo" />);
    await screen.findByText("all 2 on");
    await userEvent.click(screen.getByRole("checkbox", { name: /delete_note/ }));
    expect(commands.setToolEnabled).toHaveBeenCalledWith("demo", "delete_note", false);
    await screen.findByText("1 of 2 turned off");
    expect(
      (
        screen.getByRole("checkbox", {
          name: /delete_note/,
        }) as HTMLInputElement
      ).checked,
    ).toBe(false);
    expect((screen.getByRole("checkbox", { name: /echo/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("keeps a refusal in view and the switch as the host holds it", async () => {
    vi.mocked(commands.serverTools).mockResolvedValue([tool("echo", true)]);
    vi.mocked(commands.setToolEnabled).mockRejectedValue({
      code: "broken_config",
      message: "the configuration file must be fixed first",
    });
    render(<ServerTools server="demo" />);
    await userEvent.click(await screen.findByRole("checkbox", { name: /echo/ }));
    expect((await screen.findByRole("alert")).textContent).toContain("must be fixed first");
    await waitFor(() =>
      expect((screen.getByRole("checkbox", { name: /echo/ }) as HTMLInputElement).checked).toBe(true),
    );
  });

  it("lists a tool turned off that the server no longer lists, so it can be turned on", async () => {
    vi.mocked(commands.serverTools).mockResolvedValue([tool("echo", true), tool("old", false, false)]);
    render(<ServerTools server="demo" />);
    expect(await screen.findByText("(no longer listed by the server)")).toBeTruthy();
  });
});

describe("a server's tool switches in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("counts the tools on and off in Chinese, each tool named as its server names it", async () => {
    act(() => applyLanguage("zh-CN"));
    let held = [tool("echo", true), tool("delete_note", true), { ...tool("old", true, false), title: "Old tool" }];
    vi.mocked(commands.serverTools).mockImplementation(() => Promise.resolve(held));
    vi.mocked(commands.setToolEnabled).mockImplementation((_server, name, on) => {
      held = held.map((t) => (t.name === name ? { ...t, on } : t));
      return Promise.resolve(null);
    });
    render(<ServerTools server="demo" />);
    expect((await screen.findByRole("heading", { level: 3 })).textContent).toBe("工具 全部 3 个已开启");
    expect(screen.getByText("关闭的工具不会出现在“探索”和“对话”中，任何人调用它都会被拒绝。")).toBeTruthy();
    const unlisted = screen.getByRole("checkbox", { name: /Old tool/ }) as HTMLInputElement;
    expect(unlisted.labels?.[0]?.textContent).toBe("Old tool old（服务器已不再列出）");
    await userEvent.click(screen.getByRole("checkbox", { name: "delete_note" }));
    expect(await screen.findByText("3 个中已关闭 1 个")).toBeTruthy();
  });
});

import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { ReadDialog, type ReadRequest } from "./ReadDialog";
import { readSubject } from "./readSubject";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const request: ReadRequest = {
  id: 9,
  server: "notes",
  deadlineMs: Date.now() + 5 * 60_000,
  read: { kind: "resource", uri: "notes://private/diary" },
  askedBy: { by: "agent", name: "Claude Code" },
};

function setup(overrides: Partial<ReadRequest> = {}) {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(<ReadDialog request={{ ...request, ...overrides }} onAnswer={onAnswer} />);
  waitOutGuard();
  return { onAnswer, user };
}

describe("ReadDialog", () => {
  it("says which agent reads what of which server", () => {
    setup();
    const dialog = screen.getByRole("dialog", { name: "Claude Code wants to read notes://private/diary from notes" });
    expect(within(dialog).getByRole("timer").textContent).toMatch(/\(denied\)$/);
  });

  it("names the conversation of a model that reads", () => {
    setup({ askedBy: { by: "model", conversation: "4", title: "Trip plans" } });
    screen.getByRole("dialog", { name: "A model in conversation “Trip plans” wants to read notes://private/diary from notes" });
    screen.getByRole("group", { name: "Remember a choice to allow the model's reads of this server" });
  });

  it("names a prompt with the arguments it is filled with, and what was typed for suggestions", () => {
    setup({ read: { kind: "prompt", name: "greet", arguments: { name: "Grace" } } });
    screen.getByRole("dialog", { name: "Claude Code wants the prompt greet from notes" });
    const detail = screen.getByRole("definition");
    expect(detail.textContent).toBe("Grace");
    cleanup();
    setup({ read: { kind: "completion", of: "greet", argument: "name", value: "Gr" } });
    screen.getByRole("dialog", { name: "Claude Code wants suggestions for name of greet from notes" });
    expect(screen.getByRole("definition").textContent).toBe("Gr");
  });

  it("asks about a model's use of a skill as it is, allowed once or always as it is", async () => {
    const { onAnswer, user } = setup({
      askedBy: { by: "model", conversation: "4", title: "Tour" },
      read: { kind: "skill", name: "demo-tour", uri: "skill://demo-tour/SKILL.md", digest: "sha256:ab12" },
    });
    screen.getByRole("dialog", { name: "A model in conversation “Tour” wants to use the skill demo-tour from notes" });
    expect(screen.getAllByRole("definition").map((d) => d.textContent)).toEqual(["skill://demo-tour/SKILL.md", "sha256:ab12"]);
    expect(screen.queryByRole("group", { name: /Remember a choice/ })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Always allow this skill as it is" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "tool_always" });
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "once" });
  });

  it("allows once, for the server until quit, or always; denies", async () => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "once" });
    await user.click(screen.getByRole("button", { name: "Allow reading this server until quit" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "server_for_session" });
    await user.click(screen.getByRole("radio", { name: /Always/ }));
    await user.click(screen.getByRole("button", { name: "Always allow reading this server" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "server_always" });
    await user.click(screen.getByRole("button", { name: "Deny" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: false, remember: "once" });
  });

  it("names an app that reads and what it follows, and says when nothing is typed", () => {
    setup({ askedBy: { by: "app", server: "maps" }, read: { kind: "subscription", uri: "notes://today" } });
    screen.getByRole("dialog", { name: "The app of maps wants to follow the changes of notes://today from notes" });
    screen.getByRole("group", { name: "Remember a choice to allow the app's reads of this server" });
    cleanup();
    setup({ read: { kind: "completion", of: "greet", argument: "name", value: "" } });
    expect(screen.getByRole("definition").textContent).toBe("(nothing)");
  });

  it("says what changed since the person allowed this agent's reads", () => {
    setup({ changed: { server: true, allowedMs: 1_700_000_000_000 } });
    screen.getByRole("alert", { name: "Changed since you allowed it" });
  });
});

describe("ReadDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("asks in Chinese which agent reads what of which server, and how long to remember", async () => {
    act(() => applyLanguage("zh-CN"));
    const { onAnswer, user } = setup();
    const dialog = screen.getByRole("dialog", { name: "Claude Code 想要从 notes 读取 notes://private/diary" });
    expect(within(dialog).getByRole("timer").textContent).toContain("拒绝");
    expect(screen.getByLabelText("读取的内容").textContent).toBe("资源notes://private/diary");
    screen.getByRole("group", { name: "记住允许此智能体读取此服务器的选择" });
    expect(screen.getByRole("radio", { name: "直到 Switchboard 退出" })).toHaveProperty("checked", true);
    await user.click(screen.getByRole("button", { name: "允许读取此服务器，直到退出" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "server_for_session" });
    await user.click(screen.getByRole("radio", { name: "始终（保存在设置中）" }));
    await user.click(screen.getByRole("button", { name: "始终允许读取此服务器" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "server_always" });
    await user.click(screen.getByRole("button", { name: "允许一次" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "once" });
    await user.click(screen.getByRole("button", { name: "拒绝" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: false, remember: "once" });
  });

  it("names a model's conversation, a skill, a prompt and suggestions in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    setup({
      askedBy: { by: "model", conversation: "4", title: "Tour" },
      read: { kind: "skill", name: "demo-tour", uri: "skill://demo-tour/SKILL.md", digest: "sha256:ab12" },
    });
    screen.getByRole("dialog", { name: "对话“Tour”中的模型想要使用 notes 的技能 demo-tour" });
    expect(screen.getAllByRole("term").map((d) => d.textContent)).toEqual(["指令", "当前版本"]);
    screen.getByText("技能是模型遵循的一组指令。始终允许后，如果服务器更改了它，会再次询问你。");
    screen.getByRole("button", { name: "始终允许此技能的当前版本" });
    cleanup();
    setup({ askedBy: { by: "app", server: "maps" }, read: { kind: "prompt", name: "greet", arguments: {} } });
    screen.getByRole("dialog", { name: "maps 的应用想要获取 notes 的提示词 greet" });
    screen.getByRole("group", { name: "记住允许该应用读取此服务器的选择" });
    cleanup();
    setup({ read: { kind: "completion", of: "greet", argument: "name", value: "" } });
    screen.getByRole("dialog", { name: "Claude Code 想要获取 notes 为 greet 的 name 提供的建议" });
    expect(screen.getByRole("term").textContent).toBe("已输入");
    expect(screen.getByRole("definition").textContent).toBe("（无）");
    cleanup();
    setup({ askedBy: { by: "person" }, read: { kind: "subscription", uri: "notes://today" } });
    screen.getByRole("dialog", { name: "你想要关注 notes 上 notes://today 的变化" });
  });
});

describe("readSubject", () => {
  afterEach(() => applyLanguage("en"));

  it("says what is read in a line, in the window's language", () => {
    const prompt = { kind: "prompt", name: "greet", arguments: {} } as const;
    const completion = { kind: "completion", of: "greet", argument: "name", value: "G" } as const;
    const skill = { kind: "skill", name: "tour", uri: "skill://tour/SKILL.md", digest: "sha256:1" } as const;
    expect(readSubject({ kind: "resource", uri: "notes://a" })).toBe("notes://a");
    expect(readSubject(prompt)).toBe("the prompt greet");
    expect(readSubject(completion)).toBe("suggestions for name of greet");
    expect(readSubject(skill)).toBe("the skill tour");
    applyLanguage("zh-CN");
    expect(readSubject(prompt)).toBe("提示词 greet");
    expect(readSubject(completion)).toBe("greet 的 name 的建议");
    expect(readSubject(skill)).toBe("技能 tour");
  });
});

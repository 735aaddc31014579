import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { ToolCallDialog, type ToolCallRequest } from "./ToolCallDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const request: ToolCallRequest = {
  id: 7,
  server: "files",
  deadlineMs: Date.now() + 5 * 60_000,
  tool: "delete_file",
  arguments: { path: "/tmp/a.txt" },
  annotations: { title: "Delete a file", destructiveHint: true, readOnlyHint: false },
};

function setup(overrides: Partial<ToolCallRequest> = {}) {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(<ToolCallDialog request={{ ...request, ...overrides }} onAnswer={onAnswer} />);
  const editor = () => screen.getByRole("textbox", { name: /Arguments/ });
  // These tests use the dialog as the person does, once it takes clicks.
  waitOutGuard();
  return { onAnswer, user, editor };
}

describe("ToolCallDialog", () => {
  it("says which server wants which tool, and how long it waits", () => {
    setup();
    const dialog = screen.getByRole("dialog", { name: "files wants to call delete_file" });
    expect(within(dialog).getByRole("timer").textContent).toMatch(/^Answers itself in [45]:\d\d \(denied\)$/);
  });

  it("names the agent that asks through the gateway", () => {
    setup({ askedBy: { by: "agent", name: "Claude Code" } });
    screen.getByRole("dialog", { name: "Claude Code wants files to call delete_file" });
  });

  it("says the person's own call is theirs, asked about because the tool may destroy something", () => {
    setup({ askedBy: { by: "person" } });
    const dialog = screen.getByRole("dialog", { name: "Your own call of delete_file on files may destroy something" });
    expect(within(dialog).getByText(/^You called it yourself: it asks first because the tool does not claim/).textContent).toContain(
      "Trust page",
    );
  });

  it("says when a model in a conversation asks, naming the conversation", () => {
    setup({ askedBy: { by: "model", conversation: "3", title: "Tidy the notes" } });
    screen.getByRole("dialog", { name: "A model in conversation “Tidy the notes” wants to call delete_file of files" });
  });

  it("shows the annotations as unverified claims of the server", () => {
    setup();
    const claims = screen.getByRole("region", { name: "Claims made by files, not verified" });
    const items = within(claims)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual([
      "Title: Delete a file title",
      "May change things readOnlyHint: false",
      "May delete or overwrite things destructiveHint: true",
    ]);
  });

  it("says when the server claims nothing", () => {
    setup({ annotations: null });
    expect(screen.getByText("The server claims nothing about what this tool does.")).toBeTruthy();
  });

  it("allows once with the arguments as they came", async () => {
    const { onAnswer, user, editor } = setup();
    expect(JSON.parse((editor() as HTMLTextAreaElement).value)).toEqual({ path: "/tmp/a.txt" });
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onAnswer).toHaveBeenCalledWith({ allow: true, arguments: { path: "/tmp/a.txt" }, remember: "once" });
  });

  it("passes the arguments as the person edited them", async () => {
    const { onAnswer, user, editor } = setup();
    await user.clear(editor());
    await user.type(editor(), '{{"path": "/tmp/b.txt", "force": false}');
    expect(screen.getByText("You changed the arguments; the tool receives your version.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onAnswer).toHaveBeenCalledWith({
      allow: true,
      arguments: { path: "/tmp/b.txt", force: false },
      remember: "once",
    });
  });

  it("blocks every allow while the arguments are not a JSON object", async () => {
    const { onAnswer, user, editor } = setup();
    await user.type(editor(), "x");
    expect(screen.getByText("Fix the arguments to allow the call")).toBeTruthy();
    expect(screen.getByText(/^Not valid JSON/)).toBeTruthy();
    for (const name of ["Allow once", "Always allow this tool", "Always allow this server"]) {
      expect(screen.getByRole("button", { name })).toHaveProperty("disabled", true);
    }
    await user.click(screen.getByRole("button", { name: "Undo changes" }));
    expect(screen.getByRole("button", { name: "Allow once" })).toHaveProperty("disabled", false);
    await user.clear(editor());
    await user.type(editor(), "[[1]");
    expect(screen.getByText(/^Must be a JSON object/)).toBeTruthy();
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it.each([
    ["Always", "Always allow this tool", "tool_always"],
    ["Always", "Always allow this server", "server_always"],
    ["Until Switchboard quits", "Allow this tool until quit", "tool_for_session"],
    ["Until Switchboard quits", "Allow this server until quit", "server_for_session"],
  ])("remembers: %s + “%s” gives %s", async (scope, button, remember) => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("radio", { name: new RegExp(`^${scope}`) }));
    await user.click(screen.getByRole("button", { name: button }));
    expect(onAnswer).toHaveBeenCalledWith({ allow: true, arguments: { path: "/tmp/a.txt" }, remember });
  });

  it("denies once with Deny or Esc, even with edits that do not parse", async () => {
    const { onAnswer, user, editor } = setup();
    await user.type(editor(), "{{");
    await user.click(screen.getByRole("button", { name: "Deny" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: false, arguments: { path: "/tmp/a.txt" }, remember: "once" });
    await user.click(editor());
    await user.keyboard("{Escape}");
    expect(onAnswer).toHaveBeenCalledTimes(2);
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: false, arguments: { path: "/tmp/a.txt" }, remember: "once" });
  });

  it("allows once on Enter outside the editor", async () => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("radio", { name: /^Always/ }));
    await user.keyboard("{Enter}");
    expect(onAnswer).toHaveBeenCalledWith({ allow: true, arguments: { path: "/tmp/a.txt" }, remember: "once" });
  });
});

describe("ToolCallDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("asks in Chinese, the tool, server and claims as the server sent them", () => {
    act(() => applyLanguage("zh-CN"));
    setup();
    const dialog = screen.getByRole("dialog", { name: "files 请求调用 delete_file" });
    expect(within(dialog).getByRole("timer").textContent).toMatch(/^[45]:\d\d 后自动拒绝$/);
    expect(screen.getByRole("textbox", { name: "参数（JSON，可以编辑）" })).toBeTruthy();
    const claims = screen.getByRole("region", { name: "files 的声明（未经验证）" });
    expect(within(claims).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "标题：Delete a file title",
      "可能会更改内容 readOnlyHint: false",
      "可能删除或覆盖内容 destructiveHint: true",
    ]);
    expect(screen.getByRole("group", { name: "记住允许此工具或服务器的选择" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "始终（保存在设置中）" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "直到 Switchboard 退出" })).toBeTruthy();
    for (const name of ["拒绝", "始终允许此服务器", "始终允许此工具", "允许一次"]) {
      expect(screen.getByRole("button", { name })).toBeTruthy();
    }
  });

  it("names in Chinese who asks", () => {
    act(() => applyLanguage("zh-CN"));
    setup({ askedBy: { by: "agent", name: "Claude Code" } });
    screen.getByRole("dialog", { name: "Claude Code 请求 files 调用 delete_file" });
    cleanup();
    setup({ askedBy: { by: "model", conversation: "3", title: "Tidy the notes" } });
    screen.getByRole("dialog", { name: "对话“Tidy the notes”中的模型请求调用 files 的 delete_file" });
    cleanup();
    setup({ askedBy: { by: "app", server: "files" } });
    screen.getByRole("dialog", { name: "files 的应用请求调用 delete_file" });
    cleanup();
    setup({ askedBy: { by: "person" }, annotations: null });
    screen.getByRole("dialog", { name: "你自己对 files 上 delete_file 的调用可能会造成破坏" });
    expect(screen.getByText(/^这是你自己发起的调用/).textContent).toContain("“信任”页面");
    expect(screen.getByText("服务器没有声明这个工具会做什么。")).toBeTruthy();
  });

  it("says in Chinese what the person changed and what stops the call", async () => {
    act(() => applyLanguage("zh-CN"));
    const { user } = setup();
    const editor = () => screen.getByRole("textbox", { name: "参数（JSON，可以编辑）" });
    await user.click(screen.getByRole("radio", { name: "直到 Switchboard 退出" }));
    expect(screen.getByRole("button", { name: "允许此工具直到退出" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "允许此服务器直到退出" })).toBeTruthy();
    await user.type(editor(), "x");
    expect(screen.getByText("你修改了参数；工具将收到你修改后的版本。")).toBeTruthy();
    expect(screen.getByText("修正参数后才能允许此调用")).toBeTruthy();
    expect(screen.getByRole("button", { name: "允许一次" })).toHaveProperty("disabled", true);
    await user.click(screen.getByRole("button", { name: "撤销修改" }));
    expect(screen.getByRole("button", { name: "允许一次" })).toHaveProperty("disabled", false);
  });

  it("tells in Chinese what changed since the person allowed it", () => {
    act(() => applyLanguage("zh-CN"));
    setup({ changed: { server: true, allowedMs: 1_700_000_000_000 } });
    const change = screen.getByRole("alert", { name: "自你允许以来已有更改" });
    expect(within(change).getByText(/^你曾于 .+ 允许过此项，但不是现在的样子/)).toBeTruthy();
    expect(within(change).getByText(/^服务器的启动或连接方式已改变/)).toBeTruthy();
  });
});

import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { applyLanguage } from "../i18n";
import { ChatView } from "./ChatView";

type Listener = (e: { payload: unknown }) => void;
const listeners: Listener[] = [];
const resyncs: Listener[] = [];

vi.mock("../bindings", () => ({
  commands: {
    providers: vi.fn(),
    conversations: vi.fn(() => Promise.resolve([])),
    catalog: vi.fn(() => Promise.resolve({})),
    createConversation: vi.fn(),
    conversation: vi.fn(),
    chatTools: vi.fn(),
    sendMessage: vi.fn(() => Promise.resolve(null)),
    stopChat: vi.fn(() => Promise.resolve(true)),
    deleteConversation: vi.fn(() => Promise.resolve(null)),
    restoreConversation: vi.fn(() => Promise.resolve(null)),
    exportConversation: vi.fn(),
    editTurn: vi.fn(() => Promise.resolve(null)),
    regenerate: vi.fn(() => Promise.resolve(null)),
    goOn: vi.fn(() => Promise.resolve(null)),
    removeTurn: vi.fn(() => Promise.resolve(null)),
    setConversationSettings: vi.fn(() => Promise.resolve(null)),
  },
  events: {
    hostUpdate: { listen: vi.fn((f: Listener) => (listeners.push(f), Promise.resolve(() => {}))) },
    hostResync: { listen: vi.fn((f: Listener) => (resyncs.push(f), Promise.resolve(() => {}))) },
  },
}));

afterEach(() => {
  cleanup();
  listeners.length = 0;
  resyncs.length = 0;
});

/** A new conversation, untitled until its first message. */
const summary = { id: 1, title: "", createdMs: 0, updatedMs: 0, messages: 0 };
const noSpent = { inputTokens: 0, outputTokens: 0, cost: 0, unpriced: 0 };
const noSettings = { provider: null, model: null, system: null, maxTokens: null, maxRounds: null, effort: null };
const emit = (payload: unknown) => listeners.forEach((f) => f({ payload }));

/** The view with one provider, "local", whose default model is m2, and a new conversation to send to. */
async function withLocalModel() {
  vi.mocked(commands.providers).mockResolvedValue({
    providers: [
      {
        name: "local",
        protocol: "open_ai",
        baseUrl: "http://127.0.0.1:1/v1",
        models: ["m1"],
        defaultModel: "m2",
        key: "none",
      },
    ],
    defaultProvider: "local",
  } as never);
  vi.mocked(commands.createConversation).mockResolvedValue(summary);
  vi.mocked(commands.conversation).mockResolvedValue({ summary, messages: [], running: false, settings: noSettings, spent: noSpent });
  vi.mocked(commands.chatTools).mockResolvedValue({ servers: [], offered: 0, many: 128, leftOut: null });
  render(<ChatView />);
  await screen.findByRole("combobox", { name: "Provider" });
}

/** A kept conversation titled "Weather" (running or not), opened from the list. */
async function openWeather(running = false) {
  const weather = { ...summary, title: "Weather" };
  vi.mocked(commands.providers).mockResolvedValue({ providers: [], defaultProvider: null });
  vi.mocked(commands.conversations).mockResolvedValue([weather]);
  vi.mocked(commands.conversation).mockResolvedValue({ summary: weather, messages: [], running, settings: noSettings, spent: noSpent });
  vi.mocked(commands.chatTools).mockResolvedValue({ servers: [], offered: 0, many: 128, leftOut: null });
  render(<ChatView />);
  await userEvent.click(await screen.findByRole("button", { name: /^Weather / }));
  return weather;
}

describe("the chat view", () => {
  it("explains how to add a model when none is configured", async () => {
    vi.mocked(commands.providers).mockResolvedValue({ providers: [], defaultProvider: null });
    render(<ChatView />);
    const note = await screen.findByRole("note");
    expect(note.textContent).toContain("No model is configured");
    expect(note.textContent).toContain("Models");
    expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("sends to the default model, streams the answer and offers Stop while it runs", async () => {
    await withLocalModel();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Hello{Enter}");
    expect(commands.sendMessage).toHaveBeenCalledWith(1, "Hello", "local", "m2");
    await screen.findByRole("list", { name: "Messages" });
    expect(await screen.findByRole("heading", { name: "New conversation" })).toBeTruthy();
    emit({
      kind: "chat_message",
      conversation: 1,
      message: { role: "user", turn: true, spent: null, parts: [{ kind: "text", text: "Hello" }] },
    });
    emit({ kind: "chat", conversation: 1, event: { event: "text_delta", text: "**Hi** there" } });
    expect((await screen.findByText("Hi")).tagName).toBe("STRONG");
    await userEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(commands.stopChat).toHaveBeenCalledWith(1);
    emit({ kind: "chat", conversation: 1, event: { event: "finished", ended: { by: "stopped" }, usage: {} } });
    expect(await screen.findByRole("button", { name: "Send" })).toBeTruthy();
  });

  it("offers to go on from an answer cut off at its most tokens, and sends the ask", async () => {
    await withLocalModel();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Write a long story{Enter}");
    await screen.findByRole("list", { name: "Messages" });
    emit({
      kind: "chat",
      conversation: 1,
      event: {
        event: "finished",
        ended: { by: "model", reason: { reason: "max_tokens" }, saidNothing: false },
        usage: {},
      },
    });
    expect(await screen.findByText(/The answer was cut off/)).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(commands.goOn).toHaveBeenLastCalledWith(1, "local", "m2");
  });

  it("reads the open conversation again when the window missed updates", async () => {
    const weather = await openWeather(true);
    await waitFor(() => expect(commands.conversation).toHaveBeenCalledWith(1));
    vi.mocked(commands.conversation).mockClear();
    vi.mocked(commands.conversation).mockResolvedValue({
      summary: weather,
      messages: [{ role: "assistant", turn: false, spent: null, parts: [{ kind: "text", text: "Written while the window lagged." }] }],
      running: false,
      settings: noSettings,
      spent: noSpent,
    });
    resyncs.forEach((f) => f({ payload: null }));
    expect(await screen.findByText("Written while the window lagged.")).toBeTruthy();
    expect(commands.conversation).toHaveBeenCalledWith(1);
  });

  it("deletes a conversation only once the person confirms, Escape keeps it, and Undo takes it back", async () => {
    await openWeather();
    await userEvent.click(await screen.findByRole("button", { name: "Delete" }));
    const question = screen.getByRole("group", { name: "Delete Weather?" });
    expect(question.textContent).toContain("take it back until Switchboard quits");
    expect(document.activeElement?.textContent).toBe("Keep");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("group", { name: "Delete Weather?" })).toBeNull();
    expect(commands.deleteConversation).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    await userEvent.click(screen.getByRole("button", { name: "Yes, delete it" }));
    expect(commands.deleteConversation).toHaveBeenCalledExactlyOnceWith(1);
    expect((await screen.findByRole("status")).textContent).toContain("Deleted “Weather”.");
    await userEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(commands.restoreConversation).toHaveBeenCalledExactlyOnceWith(1);
    await waitFor(() => expect(screen.queryByText(/Deleted “Weather”/)).toBeNull());
  });

  it("edits a turn of the person's, takes one back, and asks for the last answer again", async () => {
    const weather = await openWeather();
    vi.mocked(commands.conversation).mockResolvedValue({
      summary: weather,
      messages: [
        { role: "user", turn: true, spent: null, parts: [{ kind: "text", text: "Rain in Lisbon?" }] },
        { role: "assistant", turn: false, spent: null, parts: [{ kind: "text", text: "Some." }] },
        { role: "user", turn: true, spent: null, parts: [{ kind: "text", text: "And in Porto?" }] },
        { role: "assistant", turn: false, spent: null, parts: [{ kind: "text", text: "More." }] },
      ],
      running: false,
      settings: { ...noSettings, provider: "local", model: "m9" },
      spent: noSpent,
    });
    resyncs.forEach((f) => f({ payload: null }));
    await screen.findByText("More.");
    const mine = () => screen.getAllByRole("listitem", { name: "You" });
    expect(mine()).toHaveLength(2);

    await userEvent.click(within(mine()[0]!).getByRole("button", { name: "Edit" }));
    const box = screen.getByRole("textbox", { name: "Your message" });
    await userEvent.clear(box);
    await userEvent.type(box, "Rain in Faro?");
    await userEvent.click(screen.getByRole("button", { name: "Send again" }));
    expect(commands.editTurn).toHaveBeenCalledWith(1, 0, { text: "Rain in Faro?", attachments: [], prompt: null }, "local", "m9");
    expect(screen.queryByText("More."), "what the edit replaces leaves at once").toBeNull();

    resyncs.forEach((f) => f({ payload: null }));
    await screen.findByText("More.");
    await userEvent.click(within(mine()[1]!).getByRole("button", { name: "Remove this message and its answer" }));
    expect(commands.removeTurn).toHaveBeenCalledWith(1, 2);

    await userEvent.click(screen.getByRole("button", { name: "Ask for the last answer again" }));
    expect(commands.regenerate).toHaveBeenCalledWith(1, "local", "m9");
    expect(screen.queryByText("More."), "the answer asked for again leaves").toBeNull();
    expect(screen.getByText("And in Porto?")).toBeTruthy();
  });

  it("offers to take back a turn the provider refused to answer", async () => {
    const weather = await openWeather();
    vi.mocked(commands.conversation).mockResolvedValue({
      summary: weather,
      messages: [{ role: "user", turn: true, spent: null, parts: [{ kind: "text", text: "Something it will not answer" }] }],
      running: false,
      settings: noSettings,
      spent: noSpent,
    });
    resyncs.forEach((f) => f({ payload: null }));
    await screen.findByText("Something it will not answer");
    emit({
      kind: "chat",
      conversation: 1,
      event: { event: "finished", ended: { by: "model", reason: { reason: "refused" }, saidNothing: true }, usage: {} },
    });
    expect((await screen.findByText(/stopped the answer as a refusal/)).textContent).toContain("remove this turn");
    await userEvent.click(screen.getByRole("button", { name: "Remove this turn" }));
    expect(commands.removeTurn).toHaveBeenCalledWith(1, 0);
  });

  it("keeps a conversation's own system prompt and limits, and refuses a limit that is not a count", async () => {
    await openWeather();
    await userEvent.click(await screen.findByRole("button", { name: "Settings" }));
    const form = within(screen.getByRole("form", { name: "Conversation settings" }));
    await userEvent.type(form.getByRole("textbox", { name: "System prompt" }), "Answer in French.");
    const tokens = form.getByRole("spinbutton", { name: "Longest answer (tokens)" });
    await userEvent.type(tokens, "0");
    expect(form.getByText(/Longest answer: a whole number of at least 1/)).toBeTruthy();
    expect((form.getByRole("button", { name: "Save settings" }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(tokens);
    await userEvent.type(tokens, "2000");
    await userEvent.selectOptions(form.getByRole("combobox", { name: "Reasoning effort" }), "high");
    await userEvent.click(form.getByRole("button", { name: "Save settings" }));
    expect(commands.setConversationSettings).toHaveBeenCalledWith(1, {
      ...noSettings,
      system: "Answer in French.",
      maxTokens: 2000,
      maxRounds: null,
      effort: "high",
    });
  });

  it("exports a conversation as Markdown or JSON and says where it was written", async () => {
    vi.mocked(commands.exportConversation).mockResolvedValue("/home/me/Weather.md");
    await openWeather();
    await userEvent.click(await screen.findByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("button", { name: "Export as Markdown" }));
    // Written in the window's words.
    expect(commands.exportConversation).toHaveBeenCalledWith(1, "markdown", expect.objectContaining({ you: "You", toolCall: "Tool call" }));
    expect((await screen.findByRole("status")).textContent).toBe("Written to /home/me/Weather.md");
    vi.mocked(commands.exportConversation).mockResolvedValue(null);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("button", { name: "Export as JSON" }));
    expect(commands.exportConversation).toHaveBeenLastCalledWith(1, "json", expect.anything());
    await waitFor(() => expect(screen.queryByRole("status")).toBeNull());
  });
});

describe("the chat view in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("explains in Chinese how to add a model, around the conversations", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.providers).mockResolvedValue({ providers: [], defaultProvider: null });
    vi.mocked(commands.conversations).mockResolvedValue([]);
    render(<ChatView />);
    const note = await screen.findByRole("note");
    expect(note.textContent).toBe(
      "尚未配置模型。请在模型页面添加一个：填写它的地址（兼容 OpenAI 的服务器，或 Anthropic）、API 密钥（保存在系统密钥环中）和默认模型。然后回到这里对话；模型的每次工具调用都会等待你的批准。",
    );
    expect(within(note).getByText("模型").tagName).toBe("STRONG");
    const list = screen.getByRole("complementary", { name: "对话列表" });
    expect(within(list).getByRole("button", { name: "新建对话" })).toBeTruthy();
    expect((within(list).getByRole("searchbox", { name: "搜索对话" }) as HTMLInputElement).placeholder).toBe("搜索…");
    expect(await within(list).findByText("还没有对话。")).toBeTruthy();
    expect((screen.getByRole("button", { name: "发送" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers a conversation's actions, and asks before deleting it, in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    await openWeather();
    for (const name of ["重命名", "导出", "设置"]) expect(await screen.findByRole("button", { name })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "删除" }));
    const question = screen.getByRole("group", { name: "删除“Weather”？" });
    expect(question.textContent).toContain("删除Weather及其全部消息？在 Switchboard 退出之前都可以撤销。");
    expect(within(question).getByText("Weather").tagName).toBe("STRONG");
    expect(document.activeElement?.textContent).toBe("保留");
    await userEvent.click(within(question).getByRole("button", { name: "是的，删除" }));
    expect((await screen.findByRole("status")).textContent).toBe("已删除“Weather”。 撤销");
    expect(screen.getByRole("button", { name: "撤销" })).toBeTruthy();
  });

  it("says what a conversation took and where it was exported, with numbers as Chinese writes them", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.exportConversation).mockResolvedValue("/home/me/Weather.json");
    const weather = await openWeather();
    vi.mocked(commands.conversation).mockResolvedValue({
      summary: weather,
      messages: [],
      running: false,
      settings: noSettings,
      spent: { inputTokens: 12000, outputTokens: 345, cost: 0.5, unpriced: 1 },
    });
    resyncs.forEach((f) => f({ payload: null }));
    expect((await screen.findByLabelText("这个对话的用量")).textContent).toBe("12,345 个词元 · $0.50，另有未定价的回答");
    await userEvent.click(screen.getByRole("button", { name: "导出" }));
    expect(screen.getByRole("group", { name: "导出为" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "导出为 JSON" }));
    expect((await screen.findByRole("status")).textContent).toBe("已写入 /home/me/Weather.json");
  });

  it("keeps a conversation's settings in Chinese, and says in Chinese what is wrong with a limit", async () => {
    act(() => applyLanguage("zh-CN"));
    await openWeather();
    await userEvent.click(await screen.findByRole("button", { name: "设置" }));
    const form = within(screen.getByRole("form", { name: "对话设置" }));
    expect((form.getByRole("textbox", { name: "系统提示词" }) as HTMLTextAreaElement).placeholder).toBe("在这个对话中模型应始终牢记的内容");
    await userEvent.type(form.getByRole("spinbutton", { name: "工具调用最多轮数" }), "0");
    expect(form.getByText("最多轮数：须为不小于 1 的整数，留空则使用默认值。")).toBeTruthy();
    expect((form.getByRole("button", { name: "保存设置" }) as HTMLButtonElement).disabled).toBe(true);
    const effort = form.getByRole("combobox", { name: "推理强度" });
    expect([...effort.querySelectorAll("option")].map((o) => o.textContent)).toEqual(["模型默认", "低", "中", "高"]);
    expect(form.getByRole("spinbutton", { name: "最长回答（词元）" })).toBeTruthy();
    expect(form.getByRole("button", { name: "取消" })).toBeTruthy();
  });

  it("tells in Chinese why the model stopped and what the run took, and keeps the provider's words", async () => {
    await withLocalModel();
    // The view speaks the language chosen while it is open.
    act(() => applyLanguage("zh-CN"));
    expect(screen.getByRole("combobox", { name: "模型" })).toBeTruthy();
    expect(screen.getByRole("combobox", { name: "提供方" })).toBeTruthy();
    await userEvent.type(screen.getByRole("textbox", { name: "消息" }), "Write a long story{Enter}");
    await screen.findByRole("list", { name: "消息" });
    emit({ kind: "chat", conversation: 1, event: { event: "text_delta", text: "Once upon a time" } });
    expect(await screen.findByRole("button", { name: "停止" })).toBeTruthy();
    emit({
      kind: "chat",
      conversation: 1,
      event: {
        event: "finished",
        ended: { by: "model", reason: { reason: "max_tokens" }, saidNothing: false },
        usage: { input_tokens: 1200, output_tokens: 34 },
      },
    });
    expect(await screen.findByText("回答被截断：已达到这里允许的回答最大词元数。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "继续" })).toBeTruthy();
    expect(screen.getByText("本次运行：读取 1,200 个词元，写出 34 个。")).toBeTruthy();
    emit({ kind: "chat", conversation: 1, event: { event: "error", message: "401: invalid key", tooLong: true, usage: {} } });
    expect((await screen.findByRole("alert")).textContent).toBe("模型无法回答：401: invalid key总结之前的轮次");
  });
});

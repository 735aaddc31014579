import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import type { CreateMessageRequestParams } from "../mcp/schema";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { SamplingDialog, type SamplingDialogProps } from "./SamplingDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const params: CreateMessageRequestParams = {
  messages: [
    {
      role: "user",
      content: { type: "text", text: "What is the capital of France?" },
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      ],
    },
  ],
  systemPrompt: "You are a helpful assistant.",
  maxTokens: 100,
  temperature: 0.2,
  stopSequences: ["END"],
  includeContext: "thisServer",
  modelPreferences: {
    hints: [{ name: "fast-model-2" }],
    costPriority: 0.3,
    intelligencePriority: 0.8,
  },
  tools: [
    {
      name: "lookup",
      description: "Looks things up",
      inputSchema: { type: "object" },
    },
  ],
};

function setup(extra: Partial<SamplingDialogProps> = {}) {
  const onAnswer = vi.fn();
  const onDecline = vi.fn();
  const user = userOnFakeClock();
  render(
    <SamplingDialog
      request={{
        id: 9,
        server: "research",
        deadlineMs: Date.now() + 60_000,
        params,
      }}
      onAnswer={onAnswer}
      onDecline={onDecline}
      {...extra}
    />,
  );
  const next = () => screen.getByRole("button", { name: /^Next|^Send reply$/ });
  const currentStep = () =>
    within(screen.getByRole("list", { name: "Steps" }))
      .getAllByRole("listitem")
      .find((li) => li.getAttribute("aria-current") === "step")?.textContent;
  // These tests use the dialog as the person does, once it takes clicks.
  waitOutGuard();
  return { onAnswer, onDecline, user, next, currentStep };
}

describe("SamplingDialog", () => {
  it("shows the server and the whole request for review", () => {
    const { currentStep } = setup();
    expect(
      screen.getByRole("dialog", {
        name: "research wants a reply from a model",
      }),
    ).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toMatch(/\(declined\)$/);
    expect(currentStep()).toBe("1. Review the request");
    expect(
      screen.getByRole("textbox", { name: "Message 1 (user)" }),
    ).toHaveProperty("value", "What is the capital of France?");
    expect(
      screen.getByRole("textbox", { name: "Message 2 (assistant), part 1" }),
    ).toHaveProperty("value", "Let me look.");
    expect(
      screen.getByRole("img", {
        name: "Image from the server (image/png, 8 B)",
      }),
    ).toBeTruthy();
    expect(
      screen.getByRole("textbox", { name: "System prompt" }),
    ).toHaveProperty("value", "You are a helpful assistant.");
    expect(screen.getByRole("textbox", { name: "Max tokens" })).toHaveProperty(
      "value",
      "100",
    );
    expect(screen.getByRole("textbox", { name: "Temperature" })).toHaveProperty(
      "value",
      "0.2",
    );
    expect(
      screen.getByRole("textbox", { name: "Stop sequences (one per line)" }),
    ).toHaveProperty("value", "END");
    expect(screen.getByText("fast-model-2")).toBeTruthy();
    expect(screen.getByText("Cost 0.3 · Intelligence 0.8")).toBeTruthy();
    expect(screen.getByText(/^from this server/)).toBeTruthy();
    expect(
      within(screen.getByRole("list", { name: "Tools offered" })).getByRole(
        "listitem",
      ).textContent,
    ).toBe("lookup — Looks things up");
  });

  it("leads through writing and reviewing the reply, then returns it", async () => {
    const { onAnswer, user, next, currentStep } = setup();
    await user.clear(screen.getByRole("textbox", { name: "Message 1 (user)" }));
    await user.type(
      screen.getByRole("textbox", { name: "Message 1 (user)" }),
      "Capital of Italy?",
    );
    await user.click(next());

    expect(currentStep()).toBe("2. Write the reply");
    expect(
      screen.getByRole("region", { name: "The conversation" }).textContent,
    ).toContain("user: Capital of Italy?");
    expect(document.activeElement).toBe(
      screen.getByRole("textbox", { name: "Your reply" }),
    );
    expect(screen.getByRole("textbox", { name: "Model name" })).toHaveProperty(
      "value",
      "human",
    );
    await user.click(next());
    expect(screen.getByText("Write the reply first")).toBeTruthy();
    expect(currentStep()).toBe("2. Write the reply");
    await user.type(
      screen.getByRole("textbox", { name: "Your reply" }),
      "Rome.",
    );
    await user.click(next());

    expect(currentStep()).toBe("3. Review the reply");
    const final = screen.getByRole("textbox", { name: "Reply to send" });
    expect(final).toHaveProperty("value", "Rome.");
    await user.type(final, " It is Rome.");
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByRole("textbox", { name: "Your reply" })).toHaveProperty(
      "value",
      "Rome. It is Rome.",
    );
    await user.click(next());
    expect(onAnswer).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Send reply" }));
    expect(onAnswer).toHaveBeenCalledWith({
      role: "assistant",
      content: { type: "text", text: "Rome. It is Rome." },
      model: "human",
      stopReason: "endTurn",
    });
  });

  it("uses the model name the person gives", async () => {
    const { onAnswer, user, next } = setup();
    await user.click(next());
    await user.type(
      screen.getByRole("textbox", { name: "Your reply" }),
      "Paris.",
    );
    await user.clear(screen.getByRole("textbox", { name: "Model name" }));
    await user.click(next());
    expect(screen.getByText("Enter a model name, such as human")).toBeTruthy();
    await user.type(screen.getByRole("textbox", { name: "Model name" }), "ada");
    await user.click(next());
    await user.click(next());
    expect(onAnswer).toHaveBeenCalledWith(
      expect.objectContaining({ model: "ada" }),
    );
  });

  it("will not go on with a max tokens that is not a number", async () => {
    const { user, next, currentStep } = setup();
    await user.clear(screen.getByRole("textbox", { name: "Max tokens" }));
    await user.type(
      screen.getByRole("textbox", { name: "Max tokens" }),
      "lots",
    );
    await user.click(next());
    expect(currentStep()).toBe("1. Review the request");
    expect(screen.getByText("Enter a whole number above 0")).toBeTruthy();
  });

  it("declines at any step, with the button or Esc", async () => {
    const { onDecline, onAnswer, user, next } = setup();
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(onDecline).toHaveBeenCalledTimes(1);
    await user.click(next());
    await user.keyboard("{Escape}");
    expect(onDecline).toHaveBeenCalledTimes(2);
    await user.type(screen.getByRole("textbox", { name: "Your reply" }), "x");
    await user.click(next());
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(onDecline).toHaveBeenCalledTimes(3);
    expect(onAnswer).not.toHaveBeenCalled();
  });
});

describe("SamplingDialog with a model", () => {
  const drafted = {
    provider: "standin",
    model: "gpt-test",
    result: {
      role: "assistant",
      content: { type: "text", text: "Paris." },
      model: "gpt-test-2024",
      stopReason: "endTurn",
    },
  };

  it("drafts the approved request with the model, lets the person edit it, and sends the edit", async () => {
    const draft = vi.fn().mockResolvedValue(drafted);
    const onAllowWithoutReview = vi.fn();
    const { onAnswer, user, next, currentStep } = setup({
      draft,
      onAllowWithoutReview,
    });
    await user.clear(screen.getByRole("textbox", { name: "Temperature" }));
    await user.type(
      screen.getByRole("textbox", { name: "Temperature" }),
      "0.7",
    );
    await user.click(next());
    expect(currentStep()).toBe("2. Write the reply");
    // The model is asked with the request as the person reviewed it.
    expect(draft).toHaveBeenCalledWith(
      expect.objectContaining({
        temperature: 0.7,
        maxTokens: 100,
        stopSequences: ["END"],
        systemPrompt: params.systemPrompt,
      }),
    );
    expect((await screen.findByText(/Drafted by/)).textContent).toContain(
      "Drafted by gpt-test",
    );
    const reply = screen.getByRole("textbox", { name: "Your reply" });
    expect(reply).toHaveProperty("value", "Paris.");
    expect(screen.getByRole("textbox", { name: "Model name" })).toHaveProperty(
      "value",
      "gpt-test-2024",
    );
    await user.type(reply, " Definitely.");
    await user.click(next());
    expect(
      screen.getByRole("textbox", { name: "Reply to send" }),
    ).toHaveProperty("value", "Paris. Definitely.");
    // The permission names the model that drafted the reply.
    await user.click(
      screen.getByRole("checkbox", {
        name: /Always for research: send the replies of gpt-test \(standin\)/,
      }),
    );
    await user.click(screen.getByRole("button", { name: "Send reply" }));
    expect(onAnswer).toHaveBeenCalledWith({
      role: "assistant",
      content: { type: "text", text: "Paris. Definitely." },
      model: "gpt-test-2024",
      stopReason: "endTurn",
    });
    expect(onAllowWithoutReview).toHaveBeenCalledTimes(1);
    expect(onAllowWithoutReview).toHaveBeenCalledWith({
      provider: "standin",
      model: "gpt-test",
    });
  });

  it("shows the tool calls the model drafted, lets the person edit or leave them out, and sends what they kept", async () => {
    const withCall = {
      ...drafted,
      result: {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look it up." },
          { type: "tool_use", id: "call_1", name: "lookup", input: { query: "capital of France" } },
          { type: "tool_use", id: "call_2", name: "lookup", input: { query: "Paris population" } },
        ],
        model: "gpt-test-2024",
        stopReason: "toolUse",
      },
    };
    const draft = vi.fn().mockResolvedValue(withCall);
    const { onAnswer, user, next } = setup({ draft });
    await user.click(next());
    expect((await screen.findByText(/Drafted by/)).textContent).toContain("Drafted by gpt-test of standin");
    const calls = screen.getAllByRole("group", { name: "Tool call lookup" });
    expect(calls).toHaveLength(2);
    const first = within(calls[0]!).getByRole("textbox", { name: /Arguments of lookup/ });
    expect(JSON.parse((first as HTMLTextAreaElement).value)).toEqual({ query: "capital of France" });
    await user.clear(first);
    await user.type(first, '{{"query": "capital of Spain"');
    expect(within(calls[0]!).getByText("The arguments are not valid JSON")).toBeTruthy();
    await user.click(next());
    expect(screen.getByRole("textbox", { name: "Your reply" }), "nothing goes on a wrong call").toBeTruthy();
    await user.type(first, "}");
    await user.click(within(calls[1]!).getByRole("button", { name: "Leave this call out" }));
    await user.click(next());
    expect(screen.getByText(/with stop reason/).textContent).toContain("toolUse");
    await user.click(screen.getByRole("button", { name: "Send reply" }));
    expect(onAnswer).toHaveBeenCalledWith({
      role: "assistant",
      content: [
        { type: "text", text: "Let me look it up." },
        { type: "tool_use", id: "call_1", name: "lookup", input: { query: "capital of Spain" } },
      ],
      model: "gpt-test-2024",
      stopReason: "toolUse",
    });
  });

  it("takes a draft of tool calls alone, and asks for a reply once they are all left out", async () => {
    const onlyCall = {
      ...drafted,
      result: {
        role: "assistant",
        content: [{ type: "tool_use", id: "call_1", name: "lookup", input: { query: "France" } }],
        model: "gpt-test-2024",
        stopReason: "toolUse",
      },
    };
    const draft = vi.fn().mockResolvedValue(onlyCall);
    const { onAnswer, user, next, currentStep } = setup({ draft });
    await user.click(next());
    await screen.findByText(/Drafted by/);
    await user.click(next());
    expect(currentStep()).toBe("3. Review the reply");
    await user.click(screen.getByRole("button", { name: "Leave this call out" }));
    await user.click(next());
    expect(screen.getByText("Write the reply first")).toBeTruthy();
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it("shows the draft as the model writes it, and keeps what it wrote when the person stops it", async () => {
    const draft = vi.fn(() => new Promise<never>(() => {}));
    const stopDraft = vi.fn();
    const onAnswer = vi.fn();
    const user = userOnFakeClock();
    const request = { id: 9, server: "research", deadlineMs: Date.now() + 60_000, params };
    const { rerender } = render(
      <SamplingDialog request={request} onAnswer={onAnswer} onDecline={vi.fn()} draft={draft} streamed="" stopDraft={stopDraft} />,
    );
    waitOutGuard();
    await user.click(screen.getByRole("button", { name: "Next: write the reply" }));
    rerender(<SamplingDialog request={request} onAnswer={onAnswer} onDecline={vi.fn()} draft={draft} streamed="Paris is the" stopDraft={stopDraft} />);
    expect(screen.getByLabelText("What the model has written so far").textContent).toBe("Paris is the");
    await user.click(screen.getByRole("button", { name: "Stop the draft" }));
    expect(stopDraft).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/You stopped the draft/)).toBeTruthy();
    const reply = screen.getByRole("textbox", { name: "Your reply" });
    expect(reply).toHaveProperty("value", "Paris is the");
    await user.type(reply, " capital.");
    await user.click(screen.getByRole("button", { name: "Next: review the reply" }));
    await user.click(screen.getByRole("button", { name: "Send reply" }));
    expect(onAnswer).toHaveBeenCalledWith({
      role: "assistant",
      content: { type: "text", text: "Paris is the capital." },
      model: "human",
      stopReason: "endTurn",
    });
  });

  it("sends an untouched draft whole, and asks nothing more without the checkbox", async () => {
    const draft = vi.fn().mockResolvedValue(drafted);
    const onAllowWithoutReview = vi.fn();
    const { onAnswer, user, next } = setup({ draft, onAllowWithoutReview });
    await user.click(next());
    await screen.findByText(/Drafted by/);
    await user.click(next());
    await user.click(next());
    expect(onAnswer).toHaveBeenCalledWith(drafted.result);
    expect(onAllowWithoutReview).not.toHaveBeenCalled();
  });

  it("shows the provider's refusal and lets the person write the reply", async () => {
    const draft = vi
      .fn()
      .mockRejectedValue({
        code: "provider",
        message: "rate limited, retry after 7s: slow down",
      });
    const { onAnswer, user, next } = setup({ draft });
    await user.click(next());
    expect((await screen.findByRole("alert")).textContent).toContain(
      "slow down",
    );
    expect(screen.getByRole("textbox", { name: "Model name" })).toHaveProperty(
      "value",
      "human",
    );
    await user.type(
      screen.getByRole("textbox", { name: "Your reply" }),
      "Lima.",
    );
    await user.click(next());
    expect(screen.queryByRole("checkbox")).toBeNull();
    await user.click(next());
    expect(onAnswer).toHaveBeenCalledWith(
      expect.objectContaining({
        content: { type: "text", text: "Lima." },
        model: "human",
      }),
    );
  });

  it("lets the person write it themselves instead of the draft", async () => {
    const draft = vi.fn().mockResolvedValue(drafted);
    const { user, next } = setup({ draft });
    await user.click(next());
    await screen.findByText(/Drafted by/);
    await user.click(screen.getByRole("button", { name: "Write it myself" }));
    expect(screen.getByRole("textbox", { name: "Your reply" })).toHaveProperty(
      "value",
      "",
    );
    expect(screen.getByRole("textbox", { name: "Model name" })).toHaveProperty(
      "value",
      "human",
    );
    expect(screen.queryByText(/Drafted by/)).toBeNull();
  });

  it("goes the hand-written way when no model is set up", async () => {
    const draft = vi.fn().mockResolvedValue(null);
    const { user, next } = setup({ draft });
    await user.click(next());
    await waitFor(() =>
      expect(
        screen.queryByRole("button", { name: "Write it myself" }),
      ).toBeNull(),
    );
    expect(draft).toHaveBeenCalled();
    expect(screen.getByRole("textbox", { name: "Your reply" })).toHaveProperty(
      "value",
      "",
    );
  });
});

describe("SamplingDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  /** The dialog as `setup` gives it, with its buttons and steps found by their Chinese names. */
  function inChinese(extra: Partial<SamplingDialogProps> = {}) {
    const { user, onAnswer } = setup(extra);
    const next = () => screen.getByRole("button", { name: /^下一步|^发送回复$/ });
    const currentStep = () =>
      within(screen.getByRole("list", { name: "步骤" }))
        .getAllByRole("listitem")
        .find((li) => li.getAttribute("aria-current") === "step")?.textContent;
    return { user, onAnswer, next, currentStep };
  }

  it("leads through the request in Chinese, the server's messages and names as sent", () => {
    act(() => applyLanguage("zh-CN"));
    userOnFakeClock();
    render(
      <SamplingDialog
        request={{
          id: 9,
          server: "research",
          deadlineMs: Date.now() + 60_000,
          params: {
            ...params,
            messages: [
              ...params.messages,
              {
                role: "assistant",
                content: [
                  { type: "tool_use", id: "call_1", name: "lookup", input: { q: "Paris" } },
                  { type: "audio", mimeType: "audio/wav", data: "not base64!" },
                ],
              },
              {
                role: "user",
                content: [{ type: "tool_result", toolUseId: "call_1", content: [{ type: "text", text: "2.1 million" }], isError: true }],
              },
            ],
            toolChoice: { mode: "auto" },
          },
          during: [
            { origin: { by: "agent", name: "Claude Code" }, call: "search", read: null },
            { origin: { by: "person" }, call: "read demo://readme", read: { kind: "resource", uri: "demo://readme" } },
            { origin: { by: "model", conversation: "3", title: "Plan the trip" }, call: "add", read: null },
          ],
        }}
        onAnswer={vi.fn()}
        onDecline={vi.fn()}
      />,
    );
    waitOutGuard();
    const dialog = screen.getByRole("dialog", { name: "research 请求模型回复" });
    expect(dialog.textContent).toContain(
      "在处理来自 Claude Code 的 search 调用、你的 读取 demo://readme 调用和来自模型（对话“Plan the trip”）的 add 调用时提出。",
    );
    expect(screen.getByRole("timer").textContent).toMatch(/^\d:\d\d 后自动拒绝$/);
    expect(
      within(screen.getByRole("list", { name: "步骤" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1. 审阅请求", "2. 撰写回复", "3. 审阅回复"]);
    expect(screen.getByRole("heading", { name: "第 1 步，共 3 步：审阅请求" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "消息 1（user）" })).toHaveProperty("value", "What is the capital of France?");
    expect(screen.getByRole("textbox", { name: "消息 2（assistant），第 1 部分" })).toHaveProperty("value", "Let me look.");
    expect(screen.getByRole("img", { name: "服务器发来的图像（image/png，8 B）" })).toBeTruthy();
    expect(screen.getByText("消息 3（assistant）")).toBeTruthy();
    expect(screen.getByText("工具调用").textContent).toBe("工具调用 lookup");
    expect(screen.getByText(/^服务器发来的音频（audio\/wav，\d+ B）：无法播放$/)).toBeTruthy();
    expect(screen.getByText(/的失败结果$/).textContent).toBe("工具调用 call_1 的失败结果");
    for (const name of ["系统提示词", "最大词元数", "温度", "停止序列（每行一个）"]) {
      expect(screen.getByRole("textbox", { name })).toBeTruthy();
    }
    expect(screen.getByText("成本 0.3 · 智能 0.8")).toBeTruthy();
    expect(screen.getByText("来自此服务器（未添加：不会自动共享任何上下文）")).toBeTruthy();
    expect(within(screen.getByRole("list", { name: "提供的工具" })).getByRole("listitem").textContent).toBe(
      "lookup — Looks things up",
    );
    expect(screen.getByText("工具选择：auto。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "拒绝" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "下一步：撰写回复" })).toBeTruthy();
  });

  it("says in Chinese what is wrong, and what the reply will be", async () => {
    act(() => applyLanguage("zh-CN"));
    const { user, next, currentStep } = inChinese();
    await user.clear(screen.getByRole("textbox", { name: "最大词元数" }));
    await user.type(screen.getByRole("textbox", { name: "最大词元数" }), "lots");
    await user.click(next());
    expect(screen.getByText("请输入大于 0 的整数")).toBeTruthy();
    await user.clear(screen.getByRole("textbox", { name: "最大词元数" }));
    await user.type(screen.getByRole("textbox", { name: "最大词元数" }), "50");
    await user.click(next());
    expect(currentStep()).toBe("2. 撰写回复");
    expect(screen.getByText("撰写 research 将作为模型回答收到的回复。请控制在约 50 个词元以内。")).toBeTruthy();
    expect(screen.getByRole("region", { name: "对话" }).textContent).toContain("user: What is the capital of France?");
    await user.clear(screen.getByRole("textbox", { name: "模型名称" }));
    await user.click(next());
    expect(screen.getByText("请先撰写回复")).toBeTruthy();
    expect(screen.getByText("请输入模型名称，例如 human")).toBeTruthy();
    await user.type(screen.getByRole("textbox", { name: "你的回复" }), "Rome.");
    await user.type(screen.getByRole("textbox", { name: "模型名称" }), "human");
    await user.click(next());
    expect(currentStep()).toBe("3. 审阅回复");
    expect(screen.getByText(/^这就是 research 将收到的内容/).textContent).toBe(
      "这就是 research 将收到的内容：一条来自助手的回复，停止原因为 endTurn。如有需要，可在这里修改。",
    );
    expect(screen.getByRole("textbox", { name: "要发送的回复" })).toHaveProperty("value", "Rome.");
    expect(screen.getByRole("button", { name: "上一步" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "发送回复" })).toBeTruthy();
  });

  it("tells in Chinese of the model's draft and its tool calls", async () => {
    act(() => applyLanguage("zh-CN"));
    const draft = vi.fn().mockResolvedValue({
      provider: "standin",
      model: "gpt-test",
      result: {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look it up." },
          { type: "tool_use", id: "call_1", name: "lookup", input: { query: "capital of France" } },
        ],
        model: "gpt-test-2024",
        stopReason: "toolUse",
      },
    });
    const { user, next } = inChinese({ draft, onAllowWithoutReview: vi.fn() });
    await user.click(next());
    expect((await screen.findByText(/^由 standin 的 gpt-test 起草/)).textContent).toBe(
      "由 standin 的 gpt-test 起草。发送给 research 之前，可按需修改。",
    );
    expect(screen.getByRole("button", { name: "我自己写" })).toBeTruthy();
    const call = screen.getByRole("group", { name: "工具调用 lookup" });
    expect(within(call).getByText("模型调用").textContent).toBe("模型调用 lookup");
    const input = within(call).getByRole("textbox", { name: "lookup 的参数（JSON）" });
    await user.clear(input);
    await user.type(input, "[[1]");
    expect(within(call).getByText("参数必须是一个 JSON 对象")).toBeTruthy();
    await user.type(input, "x");
    expect(within(call).getByText("参数不是有效的 JSON")).toBeTruthy();
    await user.clear(input);
    await user.type(input, "{{}");
    await user.click(next());
    expect(screen.getByText(/^这就是 research 将收到的内容/).textContent).toContain(
      "停止原因为 toolUse，它请求 research 运行下方的工具调用，由 research 自己运行。",
    );
    expect(
      screen.getByRole("checkbox", {
        name: "对 research 始终如此：gpt-test（standin）的回复直接发送，不再询问我，无论服务器建议哪个模型",
      }),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "去掉这个调用" })).toBeTruthy();
  });

  it("says in Chinese that the model is drafting, and that the person stopped it", async () => {
    act(() => applyLanguage("zh-CN"));
    const draft = vi.fn(() => new Promise<never>(() => {}));
    const user = userOnFakeClock();
    const request = { id: 9, server: "research", deadlineMs: Date.now() + 60_000, params };
    render(
      <SamplingDialog request={request} onAnswer={vi.fn()} onDecline={vi.fn()} draft={draft} streamed="Paris" stopDraft={vi.fn()} />,
    );
    waitOutGuard();
    await user.click(screen.getByRole("button", { name: "下一步：撰写回复" }));
    expect(screen.getByText("模型正在起草回复…")).toBeTruthy();
    expect(screen.getByLabelText("模型目前已写出的内容").textContent).toBe("Paris");
    await user.click(screen.getByRole("button", { name: "停止起草" }));
    expect(screen.getByText("你停止了起草：模型已写出的内容在下方，可以接着写完或重写。")).toBeTruthy();
  });

  it("says in Chinese when the model could not draft, and who writes the reply then", async () => {
    act(() => applyLanguage("zh-CN"));
    const { user, next } = inChinese({ draft: vi.fn().mockRejectedValue({ code: "provider", message: "slow down" }) });
    await user.click(next());
    expect((await screen.findByRole("alert")).textContent).toBe("模型无法起草回复：slow down");
    cleanup();
    const none = inChinese({ draft: vi.fn().mockResolvedValue(null) });
    await none.user.click(none.next());
    expect(await screen.findByText(/^由你撰写 research 将作为模型回答收到的回复。/)).toBeTruthy();
  });
});

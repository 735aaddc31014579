import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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
    await vi.waitFor(() =>
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

import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import type { Trouble } from "../bindings";
import { endNotice, idle, kept, resultsOf, step } from "./live";

/** What went wrong with the provider, as the host tells it. */
const overloaded: Trouble = { kind: "unavailable", status: 529, message: "Overloaded", retryAfter: "1.5" };
const refusedKey: Trouble = { kind: "auth", status: 401, message: "invalid x-api-key" };

describe("a run as it goes", () => {
  it("follows the calls the model writes, their arguments as they come, until its answer is kept", () => {
    // A window that opened the conversation as its first message was sent learns the run goes on.
    let live = idle(false);
    live = step(live, { event: "tool_call_written", index: 1, text: "{" });
    expect(live.writing).toEqual({});
    live = step(live, { event: "tool_call_writing", index: 0, server: "board", tool: "board" });
    live = step(live, { event: "tool_call_written", index: 0, text: '{"topic": ' });
    live = step(live, { event: "tool_call_written", index: 0, text: '"wea' });
    expect(live.writing).toEqual({ 0: { server: "board", tool: "board", text: '{"topic": "wea' } });
    expect(live.running).toBe(true);
    live = kept(live, { role: "assistant", turn: false, spent: null, parts: [] });
    expect(live.writing).toEqual({});
  });

  it("streams text until the message is kept, and follows each call from approval to result", () => {
    let live = idle(true);
    live = step(live, { event: "text_delta", text: "Let me " });
    live = step(live, { event: "text_delta", text: "check." });
    expect(live.streaming).toBe("Let me check.");
    live = step(live, { event: "reasoning_delta", text: "They want a check." });
    expect(live.thinking).toBe("They want a check.");
    live = kept(live, { role: "assistant", turn: false, spent: null, parts: [{ kind: "text", text: "Let me check." }] });
    expect(live.streaming).toBe("");
    expect(live.thinking).toBe("");

    live = step(live, { event: "tool_call_awaiting", callId: "c1", name: "demo__echo", server: "demo", tool: "echo", arguments: { text: "a" } });
    expect(live.calls.c1?.kind).toBe("awaiting");
    live = step(live, { event: "tool_call_running", callId: "c1", arguments: { text: "b" }, decidedBy: { kind: "person" } as const });
    live = step(live, { event: "tool_call_progress", callId: "c1", progress: 1, total: 2, message: "half" });
    expect(live.calls.c1).toMatchObject({ kind: "running", progress: 1, total: 2, message: "half", arguments: { text: "b" } });
    live = step(live, { event: "tool_call_result", callId: "c1", result: { content: [] }, isError: false });
    // The card keeps showing the arguments the call ran with (the person's edit), not the model's.
    expect(live.calls.c1).toEqual({ kind: "result", result: { content: [] }, isError: false, arguments: { text: "b" } });

    live = step(live, { event: "tool_call_denied", callId: "c2", decidedBy: { kind: "person" } as const });
    expect(live.calls.c2).toEqual({ kind: "denied", decidedBy: { kind: "person" } as const });
    live = step(live, { event: "finished", ended: { by: "stopped" }, usage: {} });
    expect(live.running).toBe(false);
  });

  it("says why the model stopped when the person should know, and offers to go on from a cut answer", () => {
    const model = (reason: string, saidNothing = false) => ({ by: "model" as const, reason: { reason }, saidNothing });
    const cut = step(idle(true), { event: "finished", ended: model("max_tokens"), usage: {} });
    expect(cut).toMatchObject({ running: false, canContinue: true });
    expect(cut.notice).toContain("cut off");
    expect(endNotice(model("refused")).notice).toContain("refusal");
    expect(endNotice(model("context_window_exceeded")).notice).toContain("no longer fits");
    expect(endNotice(model("end_turn", true)).notice).toBe("The model finished without saying anything.");
    expect(endNotice(model("end_turn"))).toEqual({ notice: null, canContinue: false });
    expect(endNotice(model("pause_turn")).notice).toBe("The model stopped (pause_turn).");
    expect(step(cut, { event: "text_delta", text: "more" }).canContinue).toBe(false);
  });

  it("keeps the tokens the run read and wrote, as the provider counted them", () => {
    const done = step(idle(true), {
      event: "finished",
      ended: { by: "stopped" },
      usage: { input_tokens: 1200, output_tokens: 34, cache_read_tokens: null, cache_write_tokens: null },
    });
    expect(done.usage).toEqual({ read: 1200, written: 34 });
    expect(step(idle(true), { event: "error", message: "401", usage: {} }).usage).toBeNull();
  });

  it("keeps the provider's words when the run fails", () => {
    const live = step(idle(true), { event: "error", message: "401: invalid key", usage: {} });
    expect(live).toMatchObject({ running: false, error: "401: invalid key" });
    expect(step(idle(true), { event: "error", message: "", trouble: refusedKey, usage: {} }).error).toBe(
      "the provider refused the API key (HTTP 401): invalid x-api-key",
    );
  });

  it("finds the kept results by the call they answer", () => {
    const found = resultsOf([{ role: "user", turn: false, spent: null, parts: [{ kind: "tool_result", callId: "c9", result: { content: [] }, isError: true, notMade: null }] }]);
    expect(found.get("c9")).toEqual({ kind: "result", result: { content: [] }, isError: true });
  });
});

describe("a run as it goes, in Chinese", () => {
  afterEach(() => applyLanguage("en"));

  it("tells the person in Chinese why the model stopped, with the provider's and protocol's words as they are", () => {
    applyLanguage("zh-CN");
    const model = (reason: string, saidNothing = false) => ({ by: "model" as const, reason: { reason }, saidNothing });
    expect(endNotice(model("max_tokens")).notice).toBe("回答被截断：已达到这里允许的回答最大词元数。");
    expect(endNotice(model("refused")).notice).toBe("提供方以拒绝为由中止了回答：请编辑你的消息，或先移除这一轮再继续。");
    expect(endNotice(model("context_window_exceeded")).notice).toBe("对话已超出模型的上下文长度。请新建对话，或移除附件和较长的结果。");
    expect(endNotice(model("end_turn", true)).notice).toBe("模型结束了回答，但什么也没说。");
    expect(endNotice(model("pause_turn")).notice).toBe("模型已停止（pause_turn）。");
    expect(endNotice({ by: "round_limit", rounds: 16 }).notice).toBe("模型在 16 轮之后仍在调用工具：已在此停止。");
    expect(step(idle(true), { event: "trimmed", images: 2, results: 1 }).notice).toBe(
      "对话对模型来说太长：已略去 2 张较早的图像和 1 个较长的工具结果后重新请求（对话中仍保留它们）。",
    );
    expect(step(idle(true), { event: "retrying", attempt: 2, waitMs: 1000, error: "", trouble: overloaded }).notice).toBe(
      "正在重试（第 2 次）：提供方出错或过载（HTTP 529）（1.5 秒后重试）：Overloaded",
    );
    expect(step(idle(true), { event: "error", message: "", trouble: refusedKey, usage: {} }).error).toBe("提供方拒绝了 API 密钥（HTTP 401）：invalid x-api-key");
  });

  it("says the same in English as it always has", () => {
    expect(endNotice({ by: "round_limit", rounds: 16 }).notice).toBe("The model still called tools after 16 rounds: it was stopped there.");
    expect(step(idle(true), { event: "trimmed", images: 2, results: 1 }).notice).toBe(
      "The conversation was too long for the model: it was asked again with 2 earlier image(s) and 1 long tool result(s) left out (the conversation keeps them).",
    );
    expect(step(idle(true), { event: "retrying", attempt: 2, waitMs: 1000, error: "", trouble: overloaded }).notice).toBe(
      "Asking again (attempt 2): the provider is failing or overloaded (HTTP 529) (retry after 1.5 s): Overloaded",
    );
  });
});

import type { CallFailure, ChatEvent, DecidedBy, ShownMessage } from "../bindings";
import { t } from "../i18n";
import { troubleText } from "./trouble";

/** A tool call as its card shows it while the run goes on. */
export type CallState =
  | { kind: "awaiting"; server: string; tool: string; arguments: unknown }
  | { kind: "running"; arguments: unknown; decidedBy: DecidedBy; progress: number | null; total: number | null; message: string | null }
  | { kind: "result"; result: unknown; isError: boolean; arguments?: unknown }
  | { kind: "denied"; decidedBy: DecidedBy }
  | { kind: "failed"; error: CallFailure }
  /** Never made (denied, stopped), as a kept conversation says; `reason` is what the model was told. */
  | { kind: "not_made"; reason: string };

/** What a conversation's run adds to its kept messages, as updates arrive. */
export interface Live {
  running: boolean;
  /** The answer being written, not yet kept as a message. */
  streaming: string;
  /** What the model thinks before it answers, as it is written. */
  thinking: string;
  calls: Record<string, CallState>;
  /** The calls of servers' tools the model is writing, by their place in its answer: their arguments so far. */
  writing: Record<number, Writing>;
  /** How the last run failed, in the provider's words. */
  error: string | null;
  /** It failed because the conversation no longer fits the model's context. */
  tooLong: boolean;
  notice: string | null;
  /** The answer was cut off at its most tokens: the person may ask the model to go on. */
  canContinue: boolean;
  /** The tokens the last run's requests read and wrote, as the provider counted them. */
  usage: Tokens | null;
}

/** A call of a server's tool as the model writes it. */
export interface Writing {
  server: string;
  tool: string;
  /** Its arguments so far: JSON, unfinished. */
  text: string;
}

export interface Tokens {
  read: number;
  written: number;
}

/** A run's usage as the host sends it (the providers' counts), when it holds any. */
export function tokensOf(usage: unknown): Tokens | null {
  const u = (usage ?? {}) as { input_tokens?: unknown; output_tokens?: unknown };
  const read = typeof u.input_tokens === "number" ? u.input_tokens : 0;
  const written = typeof u.output_tokens === "number" ? u.output_tokens : 0;
  return read + written > 0 ? { read, written } : null;
}

export const idle = (running = false): Live => ({
  running,
  streaming: "",
  thinking: "",
  calls: {},
  writing: {},
  error: null,
  tooLong: false,
  notice: null,
  canContinue: false,
  usage: null,
});

type Ended = Extract<ChatEvent, { event: "finished" }>["ended"];

/** What the person is told of how a run ended, when there is anything to tell. */
export function endNotice(ended: Ended): { notice: string | null; canContinue: boolean } {
  const told = (notice: string, canContinue = false) => ({ notice, canContinue });
  if (ended.by === "round_limit") return told(t("chat.notice.roundLimit", { rounds: ended.rounds }));
  if (ended.by !== "model") return { notice: null, canContinue: false };
  const reason = (ended.reason as { reason?: string; detail?: unknown } | null)?.reason;
  switch (reason) {
    case "max_tokens":
      return told(t("chat.notice.cutOff"), true);
    case "refused":
      return told(t("chat.notice.refused"));
    case "context_window_exceeded":
      return told(t("chat.notice.tooLong"));
    case "end_turn":
    case "stop_sequence":
    case "tool_use":
    case undefined:
      return ended.saidNothing ? told(t("chat.notice.saidNothing")) : { notice: null, canContinue: false };
    default:
      return told(t("chat.notice.stopped", { reason }));
  }
}

/** The live state after one step of the run. */
export function step(live: Live, event: ChatEvent): Live {
  // Every step but the last is of a run that goes on: a window that missed its start (a
  // conversation opened as its first message was sent) learns it from any of them.
  const call = (id: string, state: CallState): Live => ({ ...live, running: true, calls: { ...live.calls, [id]: state } });
  switch (event.event) {
    case "text_delta":
      return { ...live, running: true, streaming: live.streaming + event.text, notice: null, canContinue: false };
    case "reasoning_delta":
      return { ...live, running: true, thinking: live.thinking + event.text };
    case "trimmed":
      return {
        ...live,
        notice: t("chat.notice.trimmed", { images: event.images, results: event.results }),
      };
    case "tool_call_writing":
      return { ...live, running: true, writing: { ...live.writing, [event.index]: { server: event.server, tool: event.tool, text: "" } } };
    case "tool_call_written": {
      const was = live.writing[event.index];
      return was ? { ...live, running: true, writing: { ...live.writing, [event.index]: { ...was, text: was.text + event.text } } } : live;
    }
    case "retrying":
      return { ...live, streaming: "", thinking: "", writing: {}, notice: t("chat.notice.retrying", { error: troubleText(event.trouble), attempt: event.attempt }) };
    case "tool_call_awaiting":
      return call(event.callId, { kind: "awaiting", server: event.server, tool: event.tool, arguments: event.arguments });
    case "tool_call_running":
      return call(event.callId, { kind: "running", arguments: event.arguments, decidedBy: event.decidedBy, progress: null, total: null, message: null });
    case "tool_call_progress": {
      const was = live.calls[event.callId];
      if (was?.kind !== "running") return live;
      return call(event.callId, { ...was, progress: event.progress, total: event.total ?? null, message: event.message ?? null });
    }
    case "tool_call_result": {
      const was = live.calls[event.callId];
      const ran = was?.kind === "running" ? { arguments: was.arguments } : {};
      return call(event.callId, { kind: "result", result: event.result, isError: event.isError, ...ran });
    }
    case "tool_call_denied":
      return call(event.callId, { kind: "denied", decidedBy: event.decidedBy });
    case "tool_call_failed":
      return call(event.callId, { kind: "failed", error: event.error });
    case "message":
      return live;
    case "finished":
      return { ...live, running: false, streaming: "", thinking: "", writing: {}, ...endNotice(event.ended), usage: tokensOf(event.usage) };
    case "error":
      return {
        ...live,
        running: false,
        streaming: "",
        thinking: "",
        writing: {},
        error: event.trouble ? troubleText(event.trouble) : event.message,
        tooLong: event.tooLong === true,
        notice: null,
        canContinue: false,
        usage: tokensOf(event.usage),
      };
  }
}

/** A kept message ends the text streamed so far: it holds it now. */
export function kept(live: Live, message: ShownMessage): Live {
  return message.role === "assistant" ? { ...live, streaming: "", thinking: "", writing: {} } : live;
}

/** The results kept in the messages, by the call they answer. */
export function resultsOf(messages: ShownMessage[]): Map<string, CallState> {
  const found = new Map<string, CallState>();
  for (const message of messages)
    for (const part of message.parts)
      if (part.kind === "tool_result")
        found.set(
          part.callId,
          part.notMade
            ? { kind: "not_made", reason: part.notMade }
            : { kind: "result", result: part.result, isError: part.isError },
        );
  return found;
}

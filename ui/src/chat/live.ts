import type { ChatEvent, ShownMessage } from "../bindings";

/** A tool call as its card shows it while the run goes on. */
export type CallState =
  | { kind: "awaiting"; server: string; tool: string; arguments: unknown }
  | { kind: "running"; arguments: unknown; decidedBy: string; progress: number | null; total: number | null; message: string | null }
  | { kind: "result"; result: unknown; isError: boolean; arguments?: unknown }
  | { kind: "denied"; decidedBy: string }
  | { kind: "failed"; error: string }
  /** Never made (denied, stopped), as a kept conversation says; `reason` is what the model was told. */
  | { kind: "not_made"; reason: string };

/** What a conversation's run adds to its kept messages, as updates arrive. */
export interface Live {
  running: boolean;
  /** The answer being written, not yet kept as a message. */
  streaming: string;
  calls: Record<string, CallState>;
  /** How the last run failed, in the provider's words. */
  error: string | null;
  notice: string | null;
}

export const idle = (running = false): Live => ({ running, streaming: "", calls: {}, error: null, notice: null });

/** The live state after one step of the run. */
export function step(live: Live, event: ChatEvent): Live {
  const call = (id: string, state: CallState): Live => ({ ...live, calls: { ...live.calls, [id]: state } });
  switch (event.event) {
    case "text_delta":
      return { ...live, running: true, streaming: live.streaming + event.text, notice: null };
    case "retrying":
      return { ...live, streaming: "", notice: `The provider failed (${event.error}); asking again (attempt ${event.attempt})…` };
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
      return { ...live, running: false, streaming: "", notice: event.ended.by === "round_limit" ? `The model still called tools after ${event.ended.rounds} rounds: it was stopped there.` : null };
    case "error":
      return { ...live, running: false, streaming: "", error: event.message, notice: null };
  }
}

/** A kept message ends the text streamed so far: it holds it now. */
export function kept(live: Live, message: ShownMessage): Live {
  return message.role === "assistant" ? { ...live, streaming: "" } : live;
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

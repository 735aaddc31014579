import { useMemo, useState, type ReactNode } from "react";
import type { ShownMessage, ShownSpent } from "../bindings";
import { SafeMarkdown } from "../content/SafeMarkdown";
import { resultsOf, type CallState, type Live, type Writing } from "./live";
import { partialInput } from "../views/partialInput";
import { ViewFrame } from "../views/ViewFrame";
import { ToolCallCard } from "./ToolCallCard";
import type { Conversation } from "../views/bridge";
import type { ToolView } from "../views/viewOf";
import { format, t as translate, tx, useT } from "../i18n";

/** The views (MCP Apps) of the conversation's tool calls. */
export interface ChatViews {
  /** The view of `server`'s tool, when it has one. */
  of(server: string, tool: string): ToolView | null;
  /** The conversation as a view of `server` writes to it. */
  conversation(server: string): Conversation;
}

/** What the person may do to the conversation's turns; absent while the model answers. */
export interface TurnActions {
  /** Sends `text` in place of the turn that begins at message `at`, and all after it. */
  onEdit(at: number, text: string): void;
  /** Takes back the turn that begins at message `at`, with the model's answer. */
  onRemove(at: number): void;
}

export interface MessagesProps {
  messages: ShownMessage[];
  live: Live;
  onStop(): void;
  turns?: TurnActions | undefined;
  views?: ChatViews | undefined;
}

/** The conversation: the person's messages, the model's answers (markdown, made safe) and its tool calls as cards. */
export function Messages({ messages, live, onStop, turns, views }: MessagesProps) {
  const t = useT();
  const [editing, setEditing] = useState<{ at: number; text: string } | null>(null);
  const results = resultsOf(messages);
  const stateOf = (callId: string): CallState | null => {
    const now = live.calls[callId];
    if (now) return now;
    return results.get(callId) ?? null;
  };
  // A log, so that a screen reader says each new message as it comes; the one being
  // written is busy until it is whole, and said then.
  return (
    <div role="log" className="chat-log">
      <ol className="chat-messages" aria-label={t("chat.messages.label")}>
        {messages.map((message, i) => {
          const parts = message.parts.filter((p) => p.kind !== "tool_result");
          if (parts.length === 0) return null;
          // What the host told the model beside its calls' results: said as the host's, not yours.
          if (parts.every((p) => p.kind === "note" || p.kind === "edited"))
            return (
              <li key={i} className="chat-note muted" aria-label={t("chat.messages.note")}>
                {parts.map((p, j) =>
                  p.kind === "note" ? (
                    <p key={j}>{p.text}</p>
                  ) : p.kind === "edited" ? (
                    <p key={j}>{t("chat.messages.edited", { tool: calledOf(messages, p.callId), arguments: JSON.stringify(p.arguments) })}</p>
                  ) : null,
                )}
              </li>
            );
          // The earlier turns as the model summarised them: its words, not yours.
          if (parts.every((p) => p.kind === "summary"))
            return (
              <li key={i} className="chat-summary" aria-label={t("chat.messages.summaryLabel")}>
                <details>
                  <summary>{t("chat.messages.summary")}</summary>
                  {parts.map((p, j) => (p.kind === "summary" ? <SafeMarkdown key={j} text={p.text} /> : null))}
                </details>
              </li>
            );
          const text = parts
            .flatMap((p) => (p.kind === "text" ? [p.text] : []))
            .join("\n\n");
          if (editing?.at === i && turns)
            return (
              <li key={i} className="chat-message chat-user chat-editing" aria-label={t("chat.messages.you")}>
                <form
                  className="chat-edit"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (editing.text.trim() === "") return;
                    turns.onEdit(i, editing.text);
                    setEditing(null);
                  }}
                >
                  <textarea
                    aria-label={t("chat.messages.yourMessage")}
                    rows={Math.min(8, Math.max(2, editing.text.split("\n").length))}
                    value={editing.text}
                    autoFocus
                    onChange={(e) => setEditing({ at: i, text: e.target.value })}
                    onKeyDown={(e) => {
                      if (e.key === "Escape") setEditing(null);
                    }}
                  />
                  <div className="chat-turn-actions">
                    <button type="button" className="button" onClick={() => setEditing(null)}>
                      {t("chat.messages.cancel")}
                    </button>
                    <button type="submit" className="button primary" disabled={editing.text.trim() === ""}>
                      {t("chat.messages.sendAgain")}
                    </button>
                  </div>
                </form>
              </li>
            );
          // Only a message of plain text is edited here: its attachments would be lost.
          const editable = message.turn && parts.every((p) => p.kind === "text");
          return (
            <li key={i} className={`chat-message chat-${message.role}`} aria-label={message.role === "assistant" ? t("chat.messages.model") : (fromApp(parts) ?? t("chat.messages.you"))}>
              {parts.map((part, j) => {
                switch (part.kind) {
                  case "text":
                    return message.role === "assistant" ? <SafeMarkdown key={j} text={part.text} /> : <p key={j} className="chat-text">{part.text}</p>;
                  case "resource":
                    return (
                      <details key={j} className="chat-attachment">
                        <summary>
                          {tx("chat.messages.attached", { code: (chunks) => <code>{chunks}</code>, uri: part.uri })}{" "}
                          <span className="muted">{part.server}</span>
                        </summary>
                        <pre>{part.text}</pre>
                      </details>
                    );
                  case "app":
                    return <AppSaid key={j} server={part.server} says={part.says} text={part.text} />;
                  case "reasoning":
                    return <Reasoning key={j} text={part.text} redacted={part.redacted} />;
                  case "image":
                    return part.data ? <img key={j} alt="" src={`data:${part.mediaType ?? "image/png"};base64,${part.data}`} /> : <p key={j}>{t("chat.messages.imageAt", { url: part.url })}</p>;
                  case "tool_call":
                    return (
                      <ToolCallCard
                        key={j}
                        name={part.name}
                        server={part.server ?? null}
                        tool={part.tool ?? null}
                        arguments={part.arguments}
                        state={stateOf(part.callId)}
                        onStop={live.running ? onStop : undefined}
                        view={part.server && part.tool ? views?.of(part.server, part.tool) : null}
                        conversation={part.server ? views?.conversation(part.server) : undefined}
                      />
                    );
                  default:
                    return null;
                }
              })}
              {message.role === "assistant" && text.trim() !== "" && <CopyButton text={text} />}
              {message.spent && <p className="chat-spent muted">{spentText(message.spent)}</p>}
              {message.turn && turns && (
                <div className="chat-turn-actions">
                  {editable && (
                    <button type="button" className="button small" onClick={() => setEditing({ at: i, text })}>
                      {t("chat.messages.edit")}
                    </button>
                  )}
                  <button type="button" className="button small" aria-label={t("chat.messages.removeLabel")} onClick={() => turns.onRemove(i)}>
                    {t("chat.messages.remove")}
                  </button>
                </div>
              )}
            </li>
          );
        })}
        {(live.streaming !== "" || live.thinking !== "" || Object.keys(live.writing).length > 0) && (
          <li className="chat-message chat-assistant chat-streaming" aria-label={t("chat.messages.model")} aria-busy="true">
            {live.thinking !== "" && <Reasoning text={live.thinking} redacted={false} open={live.streaming === ""} />}
            {live.streaming !== "" && <SafeMarkdown text={live.streaming} />}
            {Object.entries(live.writing).map(([index, writing]) => (
              <WritingCall key={index} writing={writing} views={views} />
            ))}
          </li>
        )}
      </ol>
    </div>
  );
}

/** Dollars as a person reads them: cents, or finer for what costs less than a cent. */
export function dollarsText(cost: number): string {
  return `$${cost >= 0.01 ? cost.toFixed(2) : cost.toFixed(4)}`;
}

/** "1,000 tokens read, 200 written by model-a · $0.0060". */
function spentText(spent: ShownSpent): string {
  const said = { read: format.number(spent.inputTokens), written: format.number(spent.outputTokens), model: spent.model };
  return spent.cost == null
    ? translate("chat.messages.spent", said)
    : translate("chat.messages.spentCost", { ...said, cost: dollarsText(spent.cost) });
}

/** What the model thought before it answered, folded: open while it is still thinking. */
function Reasoning({ text, redacted, open = false }: { text: string; redacted: boolean; open?: boolean }) {
  const t = useT();
  return (
    <details className="chat-reasoning" open={open || undefined}>
      <summary>{open ? t("chat.reasoning.thinking") : t("chat.reasoning.title")}</summary>
      {redacted ? <p className="muted">{t("chat.reasoning.hidden")}</p> : <p className="chat-text">{text}</p>}
    </details>
  );
}

/** Copies an answer's text to the clipboard, and says so. */
function CopyButton({ text }: { text: string }) {
  const t = useT();
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  return (
    <button type="button" className="button chat-copy" aria-label={t("chat.copy.label")} onClick={() => void copy()}>
      {copied === "yes" ? t("chat.copy.copied") : copied === "failed" ? t("chat.copy.failed") : t("chat.copy.copy")}
    </button>
  );
}

/** A call the model is writing: its tool, and its view (if it has one) given the arguments so far. */
function WritingCall({ writing, views }: { writing: Writing; views: ChatViews | undefined }) {
  const t = useT();
  const partial = useMemo(() => partialInput(writing.text), [writing.text]);
  const view = views?.of(writing.server, writing.tool);
  const call = { tool: writing.tool, server: writing.server };
  return (
    <section className="tool-card tool-card-awaiting" aria-label={t("chat.call.label", call)}>
      <header className="tool-card-head">
        <code>{t("chat.call.of", call)}</code>
        <span className="tool-card-status" role="status">
          {t("chat.call.beingWritten")}
        </span>
      </header>
      {view && <ViewFrame server={writing.server} uri={view.uri} tool={view.tool} arguments={null} partial={partial} result={null} />}
    </section>
  );
}

/** Whose a person's-side message is when only apps' words are in it. */
function fromApp(parts: ShownMessage["parts"]): string | null {
  const first = parts[0];
  return first?.kind === "app" && parts.every((p) => p.kind === "app") ? translate("chat.messages.fromApp", { server: first.server }) : null;
}

/** What a view in the conversation said: its message, or what it told the model (folded). */
function AppSaid({ server, says, text }: { server: string; says: string; text: string }) {
  useT();
  const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;
  if (says === "context")
    return (
      <details className="chat-app-said">
        <summary>{tx("chat.app.told", { strong, server })}</summary>
        <p className="chat-text">{text}</p>
      </details>
    );
  return (
    <div className="chat-app-said">
      <p className="muted">{tx("chat.app.from", { strong, server })}</p>
      <p className="chat-text">{text}</p>
    </div>
  );
}

/** The tool a call of the conversation led to, as its card names it; the name the model called, else the call's id. */
function calledOf(messages: ShownMessage[], callId: string): string {
  for (const message of messages)
    for (const part of message.parts) if (part.kind === "tool_call" && part.callId === callId) return part.tool ?? part.name;
  return callId;
}

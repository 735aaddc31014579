import { useEffect, useMemo, useState } from "react";
import {
  commands,
  type ChatTools,
  type ConversationSummary,
  type ConversationView,
  type ExportFormat,
  type Providers,
  type ShownSpent,
  type SpentTotal,
} from "../bindings";
import { errorMessage } from "../errors";
import { useFetched, useHostResync, useHostUpdates } from "../host/updates";
import { idle, kept, step, type Live } from "./live";
import { Messages, dollarsText, type ChatViews, type TurnActions } from "./Messages";
import { toolViews } from "../views/viewOf";
import { ConversationSettingsForm } from "./ConversationSettingsForm";
import { ToolToggles } from "./ToolToggles";
import { Composer } from "./Composer";
import { composed, emptyDraft, promptsOf, resourcesOf, sendable, type Draft } from "./context";
import { useFollowTail } from "../followTail";
import { formatDateTime, isoTime } from "../servers/time";
import { format, t as translate, tx, useT } from "../i18n";
import { exportWords } from "./exportWords";
import "./chat.css";

/** The model a message goes to: a provider and one of its models. */
interface Choice {
  provider: string;
  model: string;
}

function defaultChoice(providers: Providers): Choice | null {
  const first = providers.providers.find((p) => p.name === providers.defaultProvider) ?? providers.providers[0];
  if (!first) return null;
  return { provider: first.name, model: first.defaultModel ?? first.models[0] ?? "" };
}

/** A conversation's total with one more answer's spending in it. */
function withSpent(total: SpentTotal, spent: ShownSpent | null | undefined): SpentTotal {
  if (!spent) return total;
  return {
    inputTokens: total.inputTokens + spent.inputTokens,
    outputTokens: total.outputTokens + spent.outputTokens,
    cost: total.cost + (spent.cost ?? 0),
    unpriced: total.unpriced + (spent.cost == null ? 1 : 0),
  };
}

/** What a conversation took: its tokens, and what they cost when its models have a price. */
function totalText(spent: SpentTotal): string {
  const tokens = format.number(spent.inputTokens + spent.outputTokens);
  if (spent.cost <= 0) return translate("chat.head.tokens", { tokens });
  const cost = dollarsText(spent.cost);
  return spent.unpriced > 0
    ? translate("chat.head.tokensCostUnpriced", { tokens, cost })
    : translate("chat.head.tokensCost", { tokens, cost });
}

/** Conversations with a model, whose tool calls pass the approval gate. */

export function ChatView() {
  const t = useT();
  const providers = useFetched(() => commands.providers(), ["providers_changed"]);
  const [query, setQuery] = useState("");
  const list = useFetched(() => commands.conversations(query.trim() === "" ? null : query), [], [query]);
  const [open, setOpen] = useState<number | null>(null);
  const [view, setView] = useState<ConversationView | null>(null);
  const [tools, setTools] = useState<ChatTools | null>(null);
  const [live, setLive] = useState<Live>(idle());
  const [choice, setChoice] = useState<Choice | null>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const catalog = useFetched(() => commands.catalog(), ["catalog_changed", "status"]);
  const { resources, prompts } = useMemo(() => {
    const offered = catalog.data ?? {};
    return { resources: resourcesOf(offered), prompts: promptsOf(offered) };
  }, [catalog.data]);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  // Deleting asks first, and can be taken back until Switchboard quits.
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [deleted, setDeleted] = useState<{ id: number; title: string } | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [exported, setExported] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const exportAs = (id: number, kind: ExportFormat) => {
    setError(null);
    commands.exportConversation(id, kind, exportWords()).then(
      (path) => setExported(path),
      (err: unknown) => setError(errorMessage(err)),
    );
  };

  useEffect(() => {
    if (choice === null && providers.data) setChoice(defaultChoice(providers.data));
  }, [providers.data, choice]);

  const load = (id: number) => {
    commands.conversation(id).then(
      (v) => {
        setView(v);
        setLive((l) => ({ ...l, running: v.running }));
        // The model the conversation was last asked with.
        if (v.settings.provider) setChoice({ provider: v.settings.provider, model: v.settings.model ?? "" });
      },
      (err: unknown) => setError(errorMessage(err)),
    );
    commands.chatTools(id).then(setTools, () => setTools(null));
  };

  useEffect(() => {
    setView(null);
    setTools(null);
    setConfirmingDelete(false);
    setSettingsOpen(false);
    setExported(null);
    setExporting(false);
    setLive(idle());
    if (open !== null) load(open);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // Updates the window missed (a flood of them): the open conversation is read again whole.
  useHostResync(() => {
    list.refresh();
    if (open !== null) load(open);
  });

  useHostUpdates((update) => {
    if (update.kind === "catalog_changed" && open !== null) commands.chatTools(open).then(setTools, () => {});
    if ((update.kind !== "chat" && update.kind !== "chat_message") || update.conversation !== open) return;
    if (update.kind === "chat_message") {
      const message = update.message;
      setView((v) => (v ? { ...v, messages: [...v.messages, message], spent: withSpent(v.spent, message.spent) } : v));
      setLive((l) => kept(l, message));
      return;
    }
    const event = update.event;
    setLive((l) => step(l, event));
    if (event.event === "finished" || event.event === "error") list.refresh();
  });

  const act = (work: Promise<unknown>, after?: () => void) => {
    setError(null);
    work.then(() => after?.(), (err: unknown) => setError(errorMessage(err)));
  };

  const create = () =>
    commands.createConversation(null).then(
      (c) => {
        list.refresh();
        setOpen(c.id);
        return c;
      },
      (err: unknown) => {
        setError(errorMessage(err));
        return null;
      },
    );

  const send = async () => {
    if (!sendable(draft) || live.running) return;
    const sent = draft;
    const message = composed(sent);
    const id = open ?? (await create())?.id ?? null;
    if (id === null) return;
    setDraft(emptyDraft());
    const provider = choice?.provider ?? null;
    const model = choice?.model || null;
    // Resources and prompts are read and got by the host as the message is sent.
    const sending =
      message.attachments.length === 0 && message.prompt === null
        ? commands.sendMessage(id, message.text, provider, model)
        : commands.sendComposed(id, message, provider, model);
    start(sending, () => setDraft(sent));
  };

  /** A run under way as `sending` sends; if it is refused, `restore` puts back what was typed. */
  const start = (sending: Promise<unknown>, restore: () => void) => {
    setLive((l) => ({ ...idle(true), calls: l.calls }));
    sending.then(
      () => list.refresh(),
      (err: unknown) => {
        setLive((l) => ({ ...l, running: false }));
        restore();
        setError(errorMessage(err));
      },
    );
  };

  /** The conversation shown up to message `at`, as a run that replaces the rest begins. */
  const keepUpTo = (at: number) => setView((v) => (v ? { ...v, messages: v.messages.slice(0, at) } : v));

  /** Runs what `sending` begins in place of the messages from `at` on; if it is refused, the conversation is read again. */
  const replace = (at: number, sending: (id: number) => Promise<unknown>) => {
    if (open === null || live.running) return;
    const id = open;
    keepUpTo(at);
    start(sending(id), () => load(id));
  };

  const turns: TurnActions | undefined =
    open === null || live.running
      ? undefined
      : {
          onEdit: (at, text) =>
            replace(at, (id) => commands.editTurn(id, at, { text, attachments: [], prompt: null }, choice?.provider ?? null, choice?.model || null)),
          onRemove: (at) => {
            const id = open;
            act(commands.removeTurn(id, at), () => load(id));
          },
        };

  // The views of the conversation's tool calls write to it as their apps'.
  const viewOfTool = useMemo(() => toolViews(catalog.data ?? {}), [catalog.data]);
  const chatViews: ChatViews | undefined =
    open === null
      ? undefined
      : {
          of: viewOfTool,
          conversation: (server) => ({
            message: (content) => {
              const sending = commands.appMessage(open, server, content as never);
              start(sending, () => {});
              return sending.then(() => {});
            },
            context: (update) => commands.appContext(open, server, (update.content ?? []) as never, (update.structuredContent ?? null) as never).then(() => {}),
          }),
        };

  const lastTurn = view?.messages.findLastIndex((m) => m.turn) ?? -1;

  /** Asks for the model's answer to the last turn again, in place of the one it gave. */
  const regenerate = () => {
    if (lastTurn < 0) return;
    replace(lastTurn + 1, (id) => commands.regenerate(id, choice?.provider ?? null, choice?.model || null));
  };

  /** Has the model summarise the turns before the last, so the conversation fits again. */
  const summarise = () => {
    if (open === null) return;
    const id = open;
    setLive((l) => ({ ...l, running: true, error: null, tooLong: false, notice: translate("chat.notice.summarising") }));
    commands.summariseEarlier(id, choice?.provider ?? null, choice?.model || null).then(
      () => {
        setLive((l) => ({ ...l, running: false, notice: translate("chat.notice.summarised") }));
        load(id);
      },
      (err: unknown) => {
        setLive((l) => ({ ...l, running: false, notice: null }));
        setError(errorMessage(err));
      },
    );
  };

  /** Asks the model to go on from an answer cut off at its most tokens. */
  const goOn = () => {
    if (open === null || live.running) return;
    start(commands.goOn(open, choice?.provider ?? null, choice?.model || null), () => {});
  };

  const stop = () => {
    if (open !== null) act(commands.stopChat(open));
  };

  // The conversation scrolls between its title and the compose form, which stay in view;
  // it follows what the model writes while the person is at its end.
  const shown = useMemo(() => [view?.messages, live], [view?.messages, live]);
  const { listRef, onScroll, jumpToLatest } = useFollowTail(shown);

  const configured = providers.data?.providers ?? [];
  const provider = configured.find((p) => p.name === choice?.provider);
  const conversations: ConversationSummary[] = list.data ?? [];
  // The list is fetched again when a conversation is named after its first message.
  const title = view ? titleOf(conversations.find((c) => c.id === view.summary.id) ?? view.summary) : "";

  return (
    <div className="chat">
      <aside className="chat-list" aria-label={t("chat.list.label")}>
        <button type="button" className="button primary" onClick={() => void create()}>
          {t("chat.list.new")}
        </button>
        <input
          type="search"
          aria-label={t("chat.list.search")}
          placeholder={t("chat.list.searchPlaceholder")}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {deleted && (
          <p className="chat-undo" role="status">
            {t("chat.list.deleted", { title: deleted.title })}{" "}
            <button
              type="button"
              className="button small"
              onClick={() =>
                act(commands.restoreConversation(deleted.id), () => {
                  setDeleted(null);
                  list.refresh();
                  setOpen(deleted.id);
                })
              }
            >
              {t("chat.list.undo")}
            </button>
          </p>
        )}
        <ul>
          {conversations.map((c) => (
            <li key={c.id}>
              <button type="button" className="chat-entry" aria-current={c.id === open ? "true" : undefined} onClick={() => setOpen(c.id)}>
                <span className="chat-entry-title">{titleOf(c)}</span>{" "}
                <time className="muted" dateTime={isoTime(c.updatedMs)}>
                  {formatDateTime(c.updatedMs)}
                </time>
              </button>
            </li>
          ))}
          {conversations.length === 0 && <li className="muted">{query ? t("chat.list.noMatch") : t("chat.list.empty")}</li>}
        </ul>
      </aside>
      <section className="chat-main">
        {providers.data && configured.length === 0 && (
          <div className="chat-no-model" role="note">
            <p>{tx("chat.noModel", { strong: (chunks) => <strong>{chunks}</strong> })}</p>
          </div>
        )}
        {view && (
          <header className="chat-head">
            {renaming === null ? (
              <>
                <h2>{title}</h2>
                {(view.spent.inputTokens > 0 || view.spent.outputTokens > 0) && (
                  <span className="muted chat-total" aria-label={t("chat.head.took")}>
                    {totalText(view.spent)}
                  </span>
                )}
                <button type="button" className="button" onClick={() => setRenaming(title)}>
                  {t("chat.head.rename")}
                </button>
                <button type="button" className="button" aria-expanded={exporting} onClick={() => setExporting((e) => !e)}>
                  {t("chat.head.export")}
                </button>
                {exporting && (
                  <span role="group" aria-label={t("chat.head.exportAs")} className="chat-export">
                    {(["markdown", "json"] as const).map((kind) => (
                      <button
                        key={kind}
                        type="button"
                        className="button"
                        aria-label={t("chat.head.exportAsFormat", { format: kind === "json" ? "JSON" : "Markdown" })}
                        onClick={() => {
                          setExporting(false);
                          exportAs(view.summary.id as number, kind);
                        }}
                      >
                        {kind === "json" ? "JSON" : "Markdown"}
                      </button>
                    ))}
                  </span>
                )}
                <button type="button" className="button" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((o) => !o)}>
                  {t("chat.head.settings")}
                </button>
                <button
                  type="button"
                  className="button danger"
                  aria-expanded={confirmingDelete}
                  onClick={() => setConfirmingDelete(true)}
                >
                  {t("chat.head.delete")}
                </button>
                {settingsOpen && (
                  <ConversationSettingsForm
                    settings={view.settings}
                    onSave={(settings) =>
                      act(commands.setConversationSettings(view.summary.id, settings), () => {
                        setSettingsOpen(false);
                        load(view.summary.id as number);
                      })
                    }
                    onCancel={() => setSettingsOpen(false)}
                  />
                )}
                {confirmingDelete && (
                  <div
                    className="confirm chat-confirm"
                    role="group"
                    aria-label={t("chat.delete.label", { title })}
                    onKeyDown={(e) => {
                      if (e.key === "Escape") setConfirmingDelete(false);
                    }}
                  >
                    <p>{tx("chat.delete.question", { strong: (chunks) => <strong>{chunks}</strong>, title })}</p>
                    <button
                      type="button"
                      className="button danger"
                      onClick={() =>
                        act(commands.deleteConversation(view.summary.id), () => {
                          setConfirmingDelete(false);
                          setDeleted({ id: view.summary.id as number, title });
                          setOpen(null);
                          list.refresh();
                        })
                      }
                    >
                      {t("chat.delete.confirm")}
                    </button>
                    {/* Focus lands on the safe choice. */}
                    <button type="button" className="button" autoFocus onClick={() => setConfirmingDelete(false)}>
                      {t("chat.delete.keep")}
                    </button>
                  </div>
                )}
              </>
            ) : (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  act(commands.renameConversation(view.summary.id, renaming), () => {
                    setRenaming(null);
                    list.refresh();
                    load(view.summary.id as number);
                  });
                }}
              >
                <input aria-label={t("chat.rename.title")} value={renaming} onChange={(e) => setRenaming(e.target.value)} />
                <button type="submit" className="button primary">
                  {t("chat.rename.save")}
                </button>
                <button type="button" className="button" onClick={() => setRenaming(null)}>
                  {t("chat.rename.cancel")}
                </button>
              </form>
            )}
          </header>
        )}
        <div className="chat-conversation">
          <div className="chat-scroll" ref={listRef} onScroll={onScroll}>
            {tools && open !== null && (
              <ToolToggles
                tools={tools}
                onServer={(server, on) => commands.setChatTool(open, server, null, on).then(setTools, (e: unknown) => setError(errorMessage(e)))}
                onTool={(server, tool, on) => commands.setChatTool(open, server, tool, on).then(setTools, (e: unknown) => setError(errorMessage(e)))}
              />
            )}
            {view && <Messages messages={view.messages} live={live} onStop={stop} turns={turns} views={chatViews} />}
            {view && !live.running && view.messages.some((m) => m.turn) && (
              <div className="chat-after">
                <button type="button" className="button small" aria-label={t("chat.after.regenerateLabel")} onClick={regenerate}>
                  {t("chat.after.regenerate")}
                </button>
              </div>
            )}
            {live.usage && !live.running && (
              <p className="muted chat-usage">
                {t("chat.after.usage", { read: format.number(live.usage.read), written: format.number(live.usage.written) })}
              </p>
            )}
            {exported && (
              <p className="muted" role="status">
                {t("chat.head.exported", { path: exported })}
              </p>
            )}
            {live.notice && (
              <p className="muted chat-notice">
                {live.notice}
                {live.canContinue ? (
                  <button type="button" className="button" onClick={goOn}>
                    {t("chat.after.continue")}
                  </button>
                ) : (
                  lastTurn >= 0 &&
                  turns && (
                    <button type="button" className="button" onClick={() => turns.onRemove(lastTurn)}>
                      {t("chat.after.removeTurn")}
                    </button>
                  )
                )}
              </p>
            )}
          </div>
          {jumpToLatest}
        </div>
        {live.error && (
          <p className="error chat-notice" role="alert">
            {t("chat.failed.couldNotAnswer", { error: live.error })}
            {live.tooLong && !live.running && open !== null && (
              <button type="button" className="button" onClick={summarise}>
                {t("chat.failed.summarise")}
              </button>
            )}
          </p>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <form
          className="chat-compose"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          {configured.length > 0 && choice && (
            <div className="chat-model">
              <label>
                {t("chat.compose.provider")}{" "}
                <select
                  value={choice.provider}
                  onChange={(e) => {
                    const next = configured.find((p) => p.name === e.target.value);
                    setChoice({ provider: e.target.value, model: next?.defaultModel ?? next?.models[0] ?? "" });
                  }}
                >
                  {configured.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {t("chat.compose.model")}{" "}
                <input list="chat-models" value={choice.model} onChange={(e) => setChoice({ ...choice, model: e.target.value })} />
              </label>
              <datalist id="chat-models">
                {[...new Set([provider?.defaultModel, ...(provider?.models ?? [])])].filter(Boolean).map((m) => (
                  <option key={m} value={m ?? ""} />
                ))}
              </datalist>
            </div>
          )}
          <Composer draft={draft} onDraft={setDraft} resources={resources} prompts={prompts} onSubmit={() => void send()} />
          {live.running ? (
            <button type="button" className="button danger" onClick={stop}>
              {t("chat.compose.stop")}
            </button>
          ) : (
            <button type="submit" className="button primary" disabled={configured.length === 0 || !sendable(draft)}>
              {t("chat.compose.send")}
            </button>
          )}
        </form>
      </section>
    </div>
  );
}

/** A conversation's title; one not named yet (blank) is called so in the window's language. */
function titleOf(conversation: { title: string }): string {
  return conversation.title || translate("chat.list.untitled");
}

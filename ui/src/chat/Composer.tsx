import { useId, useState, type KeyboardEvent } from "react";
import { ArgumentFields, type ArgumentField } from "../explorer/ArgumentFields";
import { completer } from "../explorer/completion";
import { useT } from "../i18n";
import {
  matching,
  promptText,
  resourceText,
  slashQuery,
  type Draft,
  type PromptChoice,
  type ResourceChoice,
} from "./context";

export interface ComposerProps {
  draft: Draft;
  onDraft(draft: Draft): void;
  /** The running servers' resources and prompts. */
  resources: ResourceChoice[];
  prompts: PromptChoice[];
  /** Enter pressed (without Shift) outside any list. */
  onSubmit(): void;
}

/** The most entries a menu lists; typing narrows them. */
const LISTED = 50;

/**
 * Where the person writes: the message, the resources attached to it (searched by name or URI)
 * as chips, and prompts as slash commands (`/` lists them; the chosen one's arguments are
 * fields with the server's completions).
 */
export function Composer({ draft, onDraft, resources, prompts, onSubmit }: ComposerProps) {
  const t = useT();
  const id = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [search, setSearch] = useState("");

  const query = draft.prompt ? null : slashQuery(draft.text);
  const menu = query !== null && dismissed !== draft.text ? matching(prompts, query, promptText).slice(0, LISTED) : [];
  const menuOpen = query !== null && dismissed !== draft.text;

  const choose = (prompt: PromptChoice) => {
    onDraft({ ...draft, text: "", prompt: { ...prompt, values: {} } });
    setActive(0);
  };

  const attach = (resource: ResourceChoice) => {
    const already = draft.attachments.some((a) => a.server === resource.server && a.uri === resource.uri);
    if (!already) onDraft({ ...draft, attachments: [...draft.attachments, resource] });
    setPicking(false);
    setSearch("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // A key that ends an input method's composition (Enter choosing the characters of a
    // Chinese or Japanese word) is the method's, not a send; 229 is how Safari says so.
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    if (menuOpen && menu.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive((a) => (a + step + menu.length) % menu.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        const prompt = menu[Math.min(active, menu.length - 1)];
        if (prompt) choose(prompt);
        return;
      }
    }
    if (menuOpen && e.key === "Escape") {
      e.preventDefault();
      setDismissed(draft.text);
      return;
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      onSubmit();
    }
  };

  const found = picking ? matching(resources, search, resourceText).slice(0, LISTED) : [];
  const prompt = draft.prompt;
  const fields: ArgumentField[] = (prompt?.arguments ?? []).map((arg) => ({
    name: arg.name,
    label: arg.title ?? arg.name,
    required: arg.required === true,
    ...(arg.description ? { description: arg.description } : {}),
  }));
  const menuId = `${id}-prompts`;
  const optionId = (i: number) => `${id}-prompt-${i}`;

  return (
    <div className="chat-composer">
      {draft.attachments.length > 0 && (
        <ul className="chat-chips" aria-label={t("chat.composer.attached")}>
          {draft.attachments.map((a) => (
            <li key={`${a.server}\n${a.uri}`} className="chat-chip">
              <span title={a.uri}>
                {a.title ?? a.name} <span className="muted">{a.server}</span>
              </span>
              <button
                type="button"
                className="link-button"
                aria-label={t("chat.composer.removeAttachment", { uri: a.uri })}
                onClick={() => onDraft({ ...draft, attachments: draft.attachments.filter((b) => b !== a) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {prompt && (
        <fieldset className="chat-prompt" aria-label={t("chat.composer.prompt", { name: prompt.name })}>
          <legend>
            /{prompt.name} {prompt.title && <span>{prompt.title}</span>} <span className="muted">{prompt.server}</span>
          </legend>
          {prompt.description && <p className="muted">{prompt.description}</p>}
          <ArgumentFields
            fields={fields}
            values={prompt.values}
            onValues={(values) => onDraft({ ...draft, prompt: { ...prompt, values } })}
            complete={completer(prompt.server, { type: "ref/prompt", name: prompt.name }, prompt.values)}
          />
          <button type="button" className="button" onClick={() => onDraft({ ...draft, prompt: null })}>
            {t("chat.composer.removePrompt")}
          </button>
        </fieldset>
      )}
      <div className="chat-write">
        <textarea
          aria-label={t("chat.composer.message")}
          rows={3}
          value={draft.text}
          placeholder={prompt ? t("chat.composer.placeholderWithPrompt") : t("chat.composer.placeholder")}
          role={menuOpen ? "combobox" : undefined}
          aria-expanded={menuOpen ? menu.length > 0 : undefined}
          aria-controls={menuOpen && menu.length > 0 ? menuId : undefined}
          aria-activedescendant={menuOpen && menu.length > 0 ? optionId(Math.min(active, menu.length - 1)) : undefined}
          onChange={(e) => {
            onDraft({ ...draft, text: e.target.value });
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {menuOpen && (
          <ul id={menuId} role="listbox" aria-label={t("chat.composer.prompts")} className="chat-menu">
            {menu.map((p, i) => (
              <li
                key={`${p.server}\n${p.name}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === Math.min(active, menu.length - 1)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(p)}
              >
                <strong>/{p.name}</strong> {p.title && <span>{p.title}</span>} <span className="muted">{p.server}</span>
                {p.description && <div className="muted">{p.description}</div>}
              </li>
            ))}
            {menu.length === 0 && (
              <li className="muted" role="presentation">
                {prompts.length === 0 ? t("chat.composer.noPrompt") : t("chat.composer.noPromptMatches")}
              </li>
            )}
          </ul>
        )}
      </div>
      <div className="chat-attach">
        {picking ? (
          <>
            <input
              type="search"
              aria-label={t("chat.composer.searchResources")}
              placeholder={t("chat.composer.resourcePlaceholder")}
              autoFocus
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") {
                  e.preventDefault();
                  setPicking(false);
                } else if (e.key === "Enter") {
                  e.preventDefault();
                  if (found[0]) attach(found[0]);
                }
              }}
            />
            <ul className="chat-menu" aria-label={t("chat.composer.resources")}>
              {found.map((r) => (
                <li key={`${r.server}\n${r.uri}`}>
                  <button type="button" className="link-button" onClick={() => attach(r)}>
                    {r.title ?? r.name} <span className="muted">{r.uri} · {r.server}</span>
                  </button>
                </li>
              ))}
              {found.length === 0 && (
                <li className="muted">{resources.length === 0 ? t("chat.composer.noResource") : t("chat.composer.noResourceMatches")}</li>
              )}
            </ul>
            <button type="button" className="button" onClick={() => setPicking(false)}>
              {t("chat.composer.close")}
            </button>
          </>
        ) : (
          <button type="button" className="button" onClick={() => setPicking(true)}>
            {t("chat.composer.attach")}
          </button>
        )}
      </div>
    </div>
  );
}

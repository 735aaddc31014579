/** What the composer offers as context: the running servers' resources and prompts. */
import type { Prompt, PromptArgument, Resource } from "../mcp/schema";
import type { Catalog } from "../explorer/catalogEntries";

export interface ResourceChoice {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
}

export interface PromptChoice {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
}

/** A prompt chosen as a slash command, with the values of its arguments so far. */
export interface ChosenPrompt extends PromptChoice {
  values: Record<string, string>;
}

/** What the person is writing: text, attached resources, a prompt. */
export interface Draft {
  text: string;
  attachments: ResourceChoice[];
  prompt: ChosenPrompt | null;
}

export const emptyDraft = (): Draft => ({ text: "", attachments: [], prompt: null });

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

export function resourcesOf(catalog: Catalog): ResourceChoice[] {
  return Object.entries(catalog).flatMap(([server, offer]) =>
    (Array.isArray(offer.resources) ? offer.resources : []).map((r: Resource) => ({
      server,
      uri: r.uri,
      name: r.name,
      ...optional("title", r.title),
      ...optional("description", r.description),
    })),
  );
}

export function promptsOf(catalog: Catalog): PromptChoice[] {
  return Object.entries(catalog).flatMap(([server, offer]) =>
    (Array.isArray(offer.prompts) ? offer.prompts : []).map((p: Prompt) => ({
      server,
      name: p.name,
      ...optional("title", p.title),
      ...optional("description", p.description),
      arguments: Array.isArray(p.arguments) ? p.arguments : [],
    })),
  );
}

/** Those whose text holds every word of the query, ignoring case. */
export function matching<T>(items: readonly T[], query: string, text: (item: T) => (string | undefined)[]): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const haystack = text(item).join("\n").toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export const resourceText = (r: ResourceChoice) => [r.name, r.title, r.uri, r.description, r.server];
export const promptText = (p: PromptChoice) => [p.name, p.title, p.description, p.server];

/** The query of a slash command being typed (`/gre` gives `gre`), or null. */
export function slashQuery(text: string): string | null {
  const match = /^\/(\S*)$/.exec(text);
  return match ? (match[1] ?? "") : null;
}

/** Whether the draft has something to send, and the prompt's required arguments are filled. */
export function sendable(draft: Draft): boolean {
  if (draft.prompt) {
    const values = draft.prompt.values;
    return draft.prompt.arguments.every((a) => a.required !== true || (values[a.name] ?? "").trim() !== "");
  }
  return draft.text.trim() !== "" || draft.attachments.length > 0;
}

/** The draft as the host takes it. */
export function composed(draft: Draft) {
  return {
    text: draft.text.trim(),
    attachments: draft.attachments.map(({ server, uri }) => ({ server, uri })),
    prompt: draft.prompt
      ? {
          server: draft.prompt.server,
          name: draft.prompt.name,
          // Blank optional arguments are left out, so the server uses its defaults.
          arguments: Object.fromEntries(Object.entries(draft.prompt.values).filter(([, v]) => v.trim() !== "")),
        }
      : null,
  };
}

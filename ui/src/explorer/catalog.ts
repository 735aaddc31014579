/** The catalog as the explorer lists it: every server's tools, resources, templates, prompts and skills. */

import type { MessageId } from "../i18n";

export type Kind = "tool" | "resource" | "template" | "prompt" | "skill";

export interface CatalogEntry {
  /** Unique across servers and kinds. */
  id: string;
  server: string;
  kind: Kind;
  name: string;
  title?: string;
  description?: string;
}

export interface CatalogGroup {
  kind: Kind;
  entries: CatalogEntry[];
}

/** Kinds in the order the list shows them, with their headings (messages, said when shown). */
export const KINDS: readonly { kind: Kind; label: MessageId }[] = [
  { kind: "tool", label: "explorer.kind.tools" },
  { kind: "resource", label: "explorer.kind.resources" },
  { kind: "template", label: "explorer.kind.templates" },
  { kind: "prompt", label: "explorer.kind.prompts" },
  { kind: "skill", label: "explorer.kind.skills" },
];

/**
 * The entries that pass the filters, grouped by kind (empty groups left out). Every word of the
 * query must appear, ignoring case, in the name, title, description or server of an entry.
 */
export function filterCatalog(
  entries: readonly CatalogEntry[],
  query: string,
  server: string | null,
  kind: Kind | null,
): CatalogGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (entry: CatalogEntry) => {
    const haystack = [entry.name, entry.title, entry.description, entry.server].join("\n").toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  const kept = entries.filter(
    (entry) => (server === null || entry.server === server) && (kind === null || entry.kind === kind) && matches(entry),
  );
  return KINDS.map(({ kind }) => ({ kind, entries: kept.filter((entry) => entry.kind === kind) })).filter(
    (group) => group.entries.length > 0,
  );
}

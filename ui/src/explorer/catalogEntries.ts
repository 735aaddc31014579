import type { Offer, SkillSummary } from "../bindings";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../mcp/schema";
import type { CatalogEntry } from "./CatalogList";

/** Every running server's offer, by server, as the host lists it. */
export type Catalog = Record<string, Offer>;

/** The skills each server lists, by server (the offer does not carry them). */
export type Skills = Record<string, SkillSummary[]>;

/** The thing an entry stands for, to show its detail. */
export type Item =
  | { kind: "tool"; server: string; tool: Tool }
  | { kind: "resource"; server: string; resource: Resource }
  | { kind: "template"; server: string; template: ResourceTemplate }
  | { kind: "prompt"; server: string; prompt: Prompt }
  | { kind: "skill"; server: string; skill: SkillSummary };

function describe(item: Item): CatalogEntry {
  const base = { server: item.server, kind: item.kind };
  const named = (id: string, it: { name: string; title?: string; description?: string }) => ({
    ...base,
    id: `${item.kind}:${item.server}:${id}`,
    name: it.name,
    ...(it.title !== undefined ? { title: it.title } : {}),
    ...(it.description !== undefined ? { description: it.description } : {}),
  });
  switch (item.kind) {
    case "tool":
      return named(item.tool.name, item.tool);
    case "resource":
      return named(item.resource.uri, item.resource);
    case "template":
      return named(item.template.uriTemplate, item.template);
    case "prompt":
      return named(item.prompt.name, item.prompt);
    case "skill": {
      const { name, description } = item.skill;
      return named(item.skill.uri, { name, ...(description ? { description } : {}) });
    }
  }
}

/**
 * Every server's offer, and the skills it lists (only for a server in the catalog), as entries
 * of one list, with the items they stand for by id.
 */
export function entriesOf(catalog: Catalog, skills: Skills = {}): { entries: CatalogEntry[]; items: Map<string, Item> } {
  const items: Item[] = Object.entries(catalog).flatMap(([server, offer]) => [
    ...offer.tools.map((tool): Item => ({ kind: "tool", server, tool })),
    ...offer.resources.map((resource): Item => ({ kind: "resource", server, resource })),
    ...offer.templates.map((template): Item => ({ kind: "template", server, template })),
    ...offer.prompts.map((prompt): Item => ({ kind: "prompt", server, prompt })),
    ...(skills[server] ?? []).map((skill): Item => ({ kind: "skill", server, skill })),
  ]);
  const entries = items.map(describe);
  return { entries, items: new Map(entries.map((e, i) => [e.id, items[i] as Item])) };
}

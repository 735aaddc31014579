import { useEffect, useMemo } from "react";
import { commands } from "../bindings";
import { CatalogList, type Kind } from "./CatalogList";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";
import { EmptyState } from "../shell/EmptyState";
import { entriesOf, type Catalog, type Item, type Skills } from "./catalogEntries";
import { PromptPanel } from "./PromptPanel";
import { ResourcePanel } from "./ResourcePanel";
import { SkillPanel } from "./SkillPanel";
import { TemplatePanel } from "./TemplatePanel";
import { ToolPanel } from "./ToolPanel";
import { useKept, useKeptStore } from "./kept";
import { OpenResourceContext, readOnOpenKey, type OpenResource } from "./openResource";
import type { Resource } from "../mcp/schema";

export function ExplorerView() {
  const t = useT();
  const { data } = useFetched(() => commands.catalog(), ["catalog_changed", "status"]);
  // The catalog last seen stands in while it is fetched again: coming back to the view does
  // not flash an empty explorer, nor lose the item chosen.
  const [seen, setSeen] = useKept<Catalog | null>("catalog", null);
  useEffect(() => {
    if (data) setSeen(data);
  }, [data, setSeen]);
  const catalog: Catalog = data ?? seen ?? {};
  const skills = useSkills(data);
  const { entries, items } = useMemo(() => entriesOf(catalog, skills), [catalog, skills]);
  // Kept above the view: the person finds the list as they left it when they come back.
  const [query, setQuery] = useKept("list:query", "");
  const [serverFilter, setServerFilter] = useKept<string | null>("list:server", null);
  const [kindFilter, setKindFilter] = useKept<Kind | null>("list:kind", null);
  const [selected, setSelected] = useKept<string | undefined>("list:selected", undefined);
  // Resources opened from links that the server does not list: shown all the same.
  const [linked, setLinked] = useKept<Record<string, Item>>("list:linked", {});
  const item = selected === undefined ? undefined : (items.get(selected) ?? linked[selected]);
  const store = useKeptStore();
  const openResource: OpenResource = (server, link) => {
    const id = `resource:${server}:${link.uri}`;
    if (!items.has(id)) {
      const { type: _type, ...fields } = link;
      const resource: Resource = fields;
      setLinked((known) => ({ ...known, [id]: { kind: "resource", server, resource } }));
    }
    store.set(readOnOpenKey(server, link.uri), true, () => false);
    setSelected(id);
  };

  if (entries.length === 0) {
    return (
      <EmptyState title={t("explorer.view.emptyTitle")}>{t("explorer.view.emptyBody")}</EmptyState>
    );
  }
  return (
    <div className="explorer">
      <CatalogList
        entries={entries}
        query={query}
        onQuery={setQuery}
        servers={Object.keys(catalog)}
        serverFilter={serverFilter}
        onServerFilter={setServerFilter}
        kindFilter={kindFilter}
        onKindFilter={setKindFilter}
        {...(selected !== undefined ? { selected } : {})}
        onSelect={setSelected}
      />
      <section className="explorer-detail" aria-label={t("explorer.view.details")}>
        <OpenResourceContext.Provider value={openResource}>
          {item ? <Detail key={selected} item={item} /> : <p className="muted">{t("explorer.view.pick")}</p>}
        </OpenResourceContext.Provider>
      </section>
    </div>
  );
}

function Detail({ item }: { item: Item }) {
  switch (item.kind) {
    case "tool":
      return <ToolPanel server={item.server} tool={item.tool} />;
    case "resource":
      return <ResourcePanel server={item.server} resource={item.resource} />;
    case "template":
      return <TemplatePanel server={item.server} template={item.template} />;
    case "prompt":
      return <PromptPanel server={item.server} prompt={item.prompt} />;
    case "skill":
      return <SkillPanel server={item.server} skill={item.skill} />;
  }
}

/**
 * The skills each server of the catalog lists, asked again each time the catalog is fetched
 * (its offer does not carry them). A server whose list fails shows none. The lists last seen
 * stand in meanwhile, as the catalog does.
 */
function useSkills(catalog: Catalog | null): Skills {
  const [skills, setSkills] = useKept<Skills>("skills", {});
  useEffect(() => {
    if (!catalog) return;
    let live = true;
    const listed = Object.keys(catalog).map((server) =>
      Promise.resolve()
        .then(() => commands.skills(server))
        .then(
          (list) => [server, Array.isArray(list) ? list : []] as const,
          () => [server, []] as const,
        ),
    );
    void Promise.all(listed).then((found) => live && setSkills(Object.fromEntries(found)));
    return () => {
      live = false;
    };
  }, [catalog, setSkills]);
  return skills;
}

import { useMemo, useState } from "react";
import { commands } from "../bindings";
import { CatalogList, type Kind } from "../explorer/CatalogList";
import { useFetched } from "../host/updates";
import { EmptyState } from "./EmptyState";
import { entriesOf, type Catalog, type Item } from "./explorer/catalogEntries";
import { PromptPanel } from "./explorer/PromptPanel";
import { ResourcePanel } from "./explorer/ResourcePanel";
import { TemplatePanel } from "./explorer/TemplatePanel";
import { ToolPanel } from "./explorer/ToolPanel";

export function ExplorerView() {
  const { data } = useFetched(() => commands.catalog(), ["catalog_changed", "status"]);
  const catalog = (data ?? {}) as unknown as Catalog;
  const { entries, items } = useMemo(() => entriesOf(catalog), [catalog]);
  const [query, setQuery] = useState("");
  const [serverFilter, setServerFilter] = useState<string | null>(null);
  const [kindFilter, setKindFilter] = useState<Kind | null>(null);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const item = selected === undefined ? undefined : items.get(selected);

  if (entries.length === 0) {
    return (
      <EmptyState title="Nothing to explore yet">
        Once a server is running, its tools, resources and prompts are listed here.
      </EmptyState>
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
      <section className="explorer-detail" aria-label="Details">
        {item ? <Detail key={selected} item={item} /> : <p className="muted">Pick a tool, resource or prompt.</p>}
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
  }
}

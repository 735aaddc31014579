import { useId } from "react";
import { format, useT, type MessageId } from "../i18n";
import { filterCatalog, KINDS, type CatalogEntry, type Kind } from "./catalog";
import "./explorer.css";

export { filterCatalog, type CatalogEntry, type CatalogGroup, type Kind } from "./catalog";

interface Props {
  entries: CatalogEntry[];
  query: string;
  onQuery(q: string): void;
  servers: string[];
  serverFilter: string | null;
  onServerFilter(s: string | null): void;
  kindFilter: Kind | null;
  onKindFilter(k: Kind | null): void;
  selected?: string;
  onSelect(id: string): void;
}

/** Search and filters over every server's offer, the matches grouped by kind. */
export function CatalogList(props: Props) {
  const t = useT();
  const { entries, query, serverFilter, kindFilter } = props;
  const groups = filterCatalog(entries, query, serverFilter, kindFilter);
  return (
    <section className="catalog" aria-label={t("explorer.catalog.label")}>
      <input
        type="search"
        className="catalog-search"
        aria-label={t("explorer.catalog.search")}
        placeholder={t("explorer.catalog.searchPlaceholder")}
        value={query}
        onChange={(e) => props.onQuery(e.target.value)}
      />
      <CatalogFilters {...props} />
      {groups.length === 0 ? (
        <p className="muted">{entries.length === 0 ? t("explorer.catalog.empty") : t("explorer.catalog.noMatch")}</p>
      ) : (
        groups.map((group) => (
          <CatalogGroupList
            key={group.kind}
            label={t(labelOf(group.kind))}
            entries={group.entries}
            selected={props.selected}
            onSelect={props.onSelect}
          />
        ))
      )}
    </section>
  );
}

/** The heading of each kind's group. */
const LABELS = Object.fromEntries(KINDS.map(({ kind, label }) => [kind, label])) as Record<Kind, MessageId>;

function labelOf(kind: Kind): MessageId {
  return LABELS[kind];
}

function CatalogFilters({ servers, serverFilter, onServerFilter, kindFilter, onKindFilter }: Props) {
  const t = useT();
  const serverId = useId();
  const kinds: readonly { kind: Kind | null; label: MessageId }[] = [{ kind: null, label: "explorer.kind.all" }, ...KINDS];
  return (
    <div className="catalog-filters">
      <label htmlFor={serverId} className="catalog-server-filter">
        {t("explorer.catalog.server")}
        <select
          id={serverId}
          value={serverFilter ?? ""}
          onChange={(e) => onServerFilter(e.target.value === "" ? null : e.target.value)}
        >
          <option value="">{t("explorer.catalog.allServers")}</option>
          {servers.map((server) => (
            <option key={server} value={server}>
              {server}
            </option>
          ))}
        </select>
      </label>
      <div role="group" aria-label={t("explorer.catalog.kind")} className="catalog-kinds">
        {kinds.map(({ kind, label }) => (
          <button
            key={label}
            type="button"
            aria-pressed={kindFilter === kind}
            onClick={() => onKindFilter(kind)}
          >
            {t(label)}
          </button>
        ))}
      </div>
    </div>
  );
}

function CatalogGroupList({
  label,
  entries,
  selected,
  onSelect,
}: {
  label: string;
  entries: CatalogEntry[];
  selected: string | undefined;
  onSelect(id: string): void;
}) {
  const t = useT();
  const headingId = useId();
  return (
    <section className="catalog-group" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {label} <span className="catalog-count">{format.number(entries.length)}</span>
      </h2>
      <ul>
        {entries.map((entry, index) => {
          const shown = entry.title ?? entry.name;
          const descriptionId = `${headingId}-${index}`;
          return (
            // Named by what it shows, "Echo on demo" (the "on" heard, not seen); its
            // description, outside the name, describes it. The whole card takes the click.
            <li key={entry.id} className="catalog-entry-card">
              <button
                type="button"
                className="catalog-entry"
                aria-describedby={entry.description ? descriptionId : undefined}
                aria-current={entry.id === selected ? "true" : undefined}
                onClick={() => onSelect(entry.id)}
              >
                <span className="catalog-entry-name">{shown}</span>{" "}
                <span className="visually-hidden">{t("explorer.entry.on")}</span>{" "}
                <span className="catalog-entry-server">{entry.server}</span>
              </button>
              {entry.description && (
                <span id={descriptionId} className="catalog-entry-description">
                  {firstLine(entry.description)}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The list has room for a line; the detail shows the rest. */
function firstLine(text: string): string {
  return text.trim().split("\n", 1)[0] ?? "";
}

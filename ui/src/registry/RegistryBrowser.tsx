import { useCallback, useEffect, useState } from "react";
import { commands, type InstallProposal, type Page, type RegistryServer, type Way } from "../bindings";
import { errorMessage } from "../errors";
import { tx, useT } from "../i18n";
import { InstallReview } from "./InstallReview";
import { unreadableText } from "./unreadable";
import { ServerEntry } from "./ServerEntry";
import "./registry.css";

interface Props {
  /** A server a `switchboard://install` link named: its review opens at once. */
  linked?: RegistryServer | null;
  onLinkedShown?: () => void;
}

/**
 * The MCP Registry of the settings: searched by name, page by page (the registry's cursors,
 * kept to go back), a server's entry beside the list. A page that fails to load leaves the
 * one shown as it was, with why. Opening the view asks nothing of the registry.
 */
export function RegistryBrowser({ linked, onLinkedShown }: Props) {
  const t = useT();
  const [registry, setRegistry] = useState("");
  const [search, setSearch] = useState("");
  // The cursor each page shown so far started at: the last is the current page's.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [query, setQuery] = useState("");
  const [page, setPage] = useState<Page | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<RegistryServer | null>(null);
  const [proposal, setProposal] = useState<InstallProposal | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  useEffect(() => {
    commands.registryUrl().then(setRegistry, () => {});
  }, []);

  const load = useCallback((search: string, cursor: string | null, after: (page: Page) => void) => {
    setLoading(true);
    setError(null);
    commands
      .registryServers({ search, cursor })
      .then(
        (page) => {
          setPage(page);
          after(page);
        },
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(() => setLoading(false));
  }, []);

  const review = useCallback((server: RegistryServer, way: Way) => {
    setAdded(null);
    commands.installProposal(server, way).then(setProposal, (err: unknown) => setError(errorMessage(err)));
  }, []);

  useEffect(() => {
    if (!linked) return;
    setSelected(linked);
    const way: Way | null = (linked.packages ?? []).length > 0 ? { package: 0 } : (linked.remotes ?? []).length > 0 ? { remote: 0 } : null;
    if (way) review(linked, way);
    onLinkedShown?.();
  }, [linked, review, onLinkedShown]);

  return (
    <div className="registry">
      <div className="registry-list">
        <form
          className="registry-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            load(search, null, () => {
              setQuery(search);
              setCursors([null]);
            });
          }}
        >
          <input
            type="search"
            aria-label={t("registry.browser.searchLabel")}
            placeholder={t("registry.browser.searchPlaceholder")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <button type="submit" disabled={loading}>
            {t("registry.browser.search")}
          </button>
        </form>
        <p className="hint">{tx("registry.browser.from", { registry: <span className="mono">{registry}</span> })}</p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {page && page.unreadable.length > 0 && (
          <p className="error" role="status">
            {t("registry.browser.unreadable", { count: page.unreadable.length, entries: page.unreadable.map(unreadableText).join("; ") })}
          </p>
        )}
        <ul aria-label={t("registry.browser.list")} aria-busy={loading}>
          {page?.servers.map((server) => (
            <li key={server.name} className={`server-row${selected?.name === server.name ? " selected" : ""}`}>
              <button type="button" className="server-select" aria-label={server.name} onClick={() => setSelected(server)}>
                <span className="server-name">{server.title ?? server.name}</span>
                <span className="server-target">
                  {server.name} {server.version}
                </span>
                <span className="registry-description">{server.description}</span>
              </button>
            </li>
          ))}
        </ul>
        {page && page.servers.length === 0 && !error && <p className="muted">{t("registry.browser.noMatch")}</p>}
        {/* The registry is a site of its own: nothing is asked of it until the person does. */}
        {!page && !error && <p className="muted">{t("registry.browser.start")}</p>}
        <div className="registry-pages">
          <button
            type="button"
            disabled={loading || cursors.length < 2}
            onClick={() => {
              const back = cursors.slice(0, -1);
              load(query, back.at(-1) ?? null, () => setCursors(back));
            }}
          >
            {t("registry.browser.previous")}
          </button>
          <span className="muted">{t("registry.browser.page", { page: cursors.length })}</span>
          <button
            type="button"
            disabled={loading || !page?.nextCursor}
            onClick={() => {
              const next = page?.nextCursor ?? null;
              load(query, next, () => setCursors([...cursors, next]));
            }}
          >
            {t("registry.browser.next")}
          </button>
        </div>
      </div>
      <section className="servers-detail" aria-label={t("registry.browser.detail")}>
        {added && (
          <p className="notice" role="status">
            {t("registry.browser.added", { name: added })}
          </p>
        )}
        {selected ? (
          <ServerEntry server={selected} onAdd={(way) => review(selected, way)} />
        ) : (
          <p className="muted">{t("registry.browser.choose")}</p>
        )}
      </section>
      {proposal && (
        <InstallReview
          key={`${proposal.server.name} ${JSON.stringify(proposal.way)}`}
          proposal={proposal}
          onCancel={() => setProposal(null)}
          onAdded={(name) => {
            setProposal(null);
            setAdded(name);
          }}
        />
      )}
    </div>
  );
}

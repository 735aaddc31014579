import { useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";

/**
 * Each tool of a server with a switch: a tool turned off is hidden from the Explorer and the
 * chat and refused if called, kept so in the configuration, and the server is not restarted.
 */
export function ServerTools({ server }: { server: string }) {
  const t = useT();
  const tools = useFetched(() => commands.serverTools(server), ["catalog_changed", "servers_changed"], [server]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = tools.data ?? [];
  if (list.length === 0) return null;
  const off = list.filter((tool) => !tool.on).length;
  const headingId = `tools-of-${server}`;
  const turn = (tool: string, on: boolean) => {
    setBusy(tool);
    commands
      .setToolEnabled(server, tool, on)
      .then(
        () => setError(null),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(() => {
        setBusy(null);
        tools.refresh();
      });
  };
  return (
    <section className="server-tools" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {t("servers.tools.title")}{" "}
        <span className="muted">
          {off === 0
            ? t("servers.tools.allOn", { count: list.length })
            : t("servers.tools.someOff", { off, count: list.length })}
        </span>
      </h3>
      <p className="muted">{t("servers.tools.note")}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ul>
        {list.map((tool) => (
          <li key={tool.name}>
            <input
              id={`${headingId}-${tool.name}`}
              type="checkbox"
              checked={tool.on}
              disabled={busy !== null}
              onChange={(e) => turn(tool.name, e.target.checked)}
            />{" "}
            <label htmlFor={`${headingId}-${tool.name}`} title={tool.description ?? undefined}>
              <span className="tool-switch-name">{tool.title ?? tool.name}</span>
              {tool.title && <code className="muted"> {tool.name}</code>}
              {!tool.listed && <span className="muted">{t("servers.tools.unlisted")}</span>}
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

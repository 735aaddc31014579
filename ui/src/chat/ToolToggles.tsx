import type { ChatTools } from "../bindings";
import { format, tx, useT } from "../i18n";

export interface ToolTogglesProps {
  tools: ChatTools;
  onServer(server: string, on: boolean): void;
  onTool(server: string, tool: string, on: boolean): void;
}

/** Which servers' and tools' the conversation's model sees, how many, and a warning when too many. */
export function ToolToggles({ tools, onServer, onTool }: ToolTogglesProps) {
  const t = useT();
  return (
    <details className="chat-tools">
      <summary>
        {tx("chat.tools.offered", {
          strong: (chunks) => <strong data-testid="tools-offered">{chunks}</strong>,
          offered: format.number(tools.offered),
        })}
      </summary>
      {tools.warning && (
        <p className="warning" role="alert">
          {tools.warning}
        </p>
      )}
      {tools.servers.length === 0 && <p className="muted">{t("chat.tools.none")}</p>}
      {tools.servers.map((server) => (
        <fieldset key={server.server} className="chat-tools-server">
          <legend>
            <label>
              <input type="checkbox" checked={server.on} onChange={(e) => onServer(server.server, e.target.checked)} /> {server.server}
            </label>
          </legend>
          {server.tools.map((tool) => (
            <label key={tool.name} className="chat-tools-tool" title={tool.description ?? undefined}>
              <input
                type="checkbox"
                checked={server.on && tool.on}
                disabled={!server.on}
                onChange={(e) => onTool(server.server, tool.name, e.target.checked)}
              />{" "}
              {tool.title ?? tool.name}
            </label>
          ))}
        </fieldset>
      ))}
    </details>
  );
}

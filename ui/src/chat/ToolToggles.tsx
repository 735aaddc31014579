import type { ChatTools, LeftOut } from "../bindings";
import { format, t as translate, tx, useT } from "../i18n";

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
      {tools.leftOut && (
        <p className="warning" role="alert">
          {leftOutText(tools.leftOut, tools.many)}
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

/** More tools on than a model is offered (`many`): which are left out, in the window's language. */
export function leftOutText(leftOut: LeftOut, many: number): string {
  const named = leftOut.named.map(({ server, tool }) => translate("chat.tools.leftOutTool", { server, tool }));
  if (leftOut.more > 0) named.push(translate("chat.tools.leftOutMore", { count: leftOut.more }));
  return translate("chat.tools.leftOut", { on: leftOut.on, many, named: named.join(translate("chat.tools.leftOutSeparator")) });
}

import { useId, useState } from "react";
import { commands, type AgentTool_Serialize, type Offered, type ServerReach_Serialize } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { useT, type t as translate } from "../i18n";
import "./agentReach.css";

/**
 * Which servers one agent reaches (every server, or those chosen), which of their tools it
 * may call and whether it may read their resources and prompts, turned off for it alone. Folded until the person opens it; a connected agent hears
 * of a change at once.
 */
export function AgentReach({ name }: { name: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <details className="agent-reach" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t("agents.reach.summary", { name })}</summary>
      {open && <ReachChoices name={name} />}
    </details>
  );
}

function ReachChoices({ name }: { name: string }) {
  const t = useT();
  const reach = useFetched(
    () => commands.agentReach(name),
    ["agents_changed", "catalog_changed", "servers_changed", "status"],
    [name],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const act = (work: Promise<unknown>) => {
    setBusy(true);
    work
      .then(
        () => setError(null),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(() => {
        setBusy(false);
        reach.refresh();
      });
  };
  if (reach.data === null) {
    return reach.error === null ? null : (
      <p className="error" role="alert">
        {t("agents.reach.loadFailed", { name, message: errorMessage(reach.error) })}
      </p>
    );
  }
  const { everyServer, servers } = reach.data;
  const chosen = servers.filter((s) => s.reached).map((s) => s.server);
  const choose = (server: string, on: boolean) =>
    act(commands.saveAgent(name, on ? [...chosen, server] : chosen.filter((s) => s !== server)));
  return (
    <div className="agent-reach-choices">
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <fieldset className="agent-reach-mode" disabled={busy}>
        <legend>{t("agents.reach.legend", { name })}</legend>
        <label>
          <input type="radio" name={`${id}-mode`} checked={everyServer} onChange={() => act(commands.saveAgent(name, null))} />{" "}
          {t("agents.reach.everyServer")}
        </label>
        <label>
          <input type="radio" name={`${id}-mode`} checked={!everyServer} onChange={() => act(commands.saveAgent(name, chosen))} />{" "}
          {t("agents.reach.chosen")}
        </label>
      </fieldset>
      {servers.length === 0 && <p className="muted">{t("agents.reach.noServer")}</p>}
      {servers.map((server) => (
        <ServerChoice
          key={server.server}
          agent={name}
          server={server}
          idPrefix={`${id}-${server.server}`}
          busy={busy}
          onReach={(on) => choose(server.server, on)}
          onTool={(tool, on) => act(commands.setAgentTool(name, server.server, tool, on))}
          onOffered={(of, on) => act(commands.setAgentOffered(name, server.server, of, on))}
        />
      ))}
    </div>
  );
}

/** A server's offers beside its tools, each on or off for the agent as a whole. */
const OFFERED: Offered[] = ["resources", "prompts"];

/** What one offer of a server is called, in the window's language. */
function offeredLabel(t: typeof translate, of: Offered): string {
  switch (of) {
    case "resources":
      return t("agents.reach.resources");
    case "prompts":
      return t("agents.reach.prompts");
  }
}

function ServerChoice({
  agent,
  server,
  idPrefix,
  busy,
  onReach,
  onTool,
  onOffered,
}: {
  agent: string;
  server: ServerReach_Serialize;
  idPrefix: string;
  busy: boolean;
  onReach(on: boolean): void;
  onTool(tool: string, on: boolean): void;
  onOffered(of: Offered, on: boolean): void;
}) {
  const t = useT();
  return (
    <fieldset className="agent-reach-server" aria-label={t("agents.reach.server", { server: server.server, agent })}>
      <legend>
        <input
          id={`${idPrefix}-server`}
          type="checkbox"
          checked={server.reached}
          disabled={busy}
          onChange={(e) => onReach(e.target.checked)}
        />{" "}
        <label htmlFor={`${idPrefix}-server`}>{server.server}</label>{" "}
        {server.reached && server.tools.some((tool) => tool.listed) && (
          <span className="muted">{toolCount(t, server.tools, agent)}</span>
        )}
      </legend>
      {!server.running && server.tools.length === 0 && <p className="muted">{t("agents.reach.notRunning")}</p>}
      {server.reached && (
        <p className="agent-reach-offered">
          {OFFERED.map((of) => (
            <span key={of}>
              <input
                id={`${idPrefix}-${of}`}
                type="checkbox"
                checked={server[of]}
                disabled={busy}
                onChange={(e) => onOffered(of, e.target.checked)}
              />{" "}
              <label htmlFor={`${idPrefix}-${of}`}>{offeredLabel(t, of)}</label>
            </span>
          ))}
        </p>
      )}
      {server.reached && (
        <ul>
          {server.tools.map((tool) => (
            <ToolChoice key={tool.name} tool={tool} id={`${idPrefix}-tool-${tool.name}`} busy={busy} onTool={onTool} />
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/**
 * How many of a server's tools the agent may call: one turned off for everyone in the server's
 * settings is off for it too, whatever its own switch says. A tool the server no longer lists
 * is not counted.
 */
function toolCount(t: typeof translate, tools: AgentTool_Serialize[], agent: string): string {
  const listed = tools.filter((tool) => tool.listed);
  const forEveryone = listed.filter((tool) => tool.offForEveryone).length;
  const forAgent = listed.filter((tool) => !tool.offForEveryone && !tool.on).length;
  const total = listed.length;
  if (forEveryone + forAgent === 0) return t("agents.reach.allOn", { count: total });
  const offForAgent = t("agents.reach.offForAgent", { count: forAgent, agent });
  const offForEveryone = t("agents.reach.offForEveryone", { count: forEveryone });
  const why =
    forAgent === 0
      ? offForEveryone
      : forEveryone === 0
        ? offForAgent
        : t("agents.reach.bothOff", { forAgent: offForAgent, forEveryone: offForEveryone });
  return t("agents.reach.someOn", { on: total - forEveryone - forAgent, count: total, why });
}

/** One tool's switch for the agent, with the server details' look. */
function ToolChoice({
  tool,
  id,
  busy,
  onTool,
}: {
  tool: AgentTool_Serialize;
  id: string;
  busy: boolean;
  onTool(tool: string, on: boolean): void;
}) {
  const t = useT();
  return (
    <li>
      <input
        id={id}
        type="checkbox"
        checked={tool.on && !tool.offForEveryone}
        disabled={busy || tool.offForEveryone}
        onChange={(e) => onTool(tool.name, e.target.checked)}
      />{" "}
      <label htmlFor={id} title={tool.description ?? undefined}>
        <span className="tool-switch-name">{tool.title ?? tool.name}</span>
        {tool.title && <code className="muted"> {tool.name}</code>}
        {tool.offForEveryone && <span className="muted"> {t("agents.reach.toolOffForEveryone")}</span>}
        {!tool.listed && <span className="muted"> {t("agents.reach.toolUnlisted")}</span>}
      </label>
    </li>
  );
}

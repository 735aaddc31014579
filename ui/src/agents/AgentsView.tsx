import { useEffect, useState } from "react";
import { commands, type AuditEntry_Serialize } from "../bindings";
import { AgentList, type AgentSnippets } from "./AgentList";
import { gatewayProblemText } from "./gateway";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";

/** How many of an agent's calls are shown. */
const RECENT = 10;

/** The agents that reach the servers through Switchboard, their recent calls, and their set-up. */
export function AgentsView() {
  const t = useT();
  const { data, error: loadError, refresh } = useFetched(() => commands.agents(), ["agents_changed"]);
  const gateway = useFetched(() => commands.gatewayStatus(), ["agents_changed"]);
  const agents = data ?? [];
  const names = agents.map((a) => a.name).join("\n");
  // A call is recorded as it is decided, and completed as it ends.
  const calls = useFetched(
    async () => {
      const all = await Promise.all(
        agents.map(async (a) => [a.name, await commands.agentCalls(a.name, RECENT)] as const),
      );
      return Object.fromEntries(all) as Record<string, AuditEntry_Serialize[]>;
    },
    ["approval_removed", "progress_ended", "agents_changed"],
    [names],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [snippets, setSnippets] = useState<Record<string, AgentSnippets>>({});
  // Read again once a token is renewed: the HTTP entry carries it.
  const [tokens, setTokens] = useState(0);
  useEffect(() => {
    let live = true;
    const read = async (name: string) => {
      const [bridge, http] = await Promise.all([commands.agentSnippet(name), commands.agentHttpSnippet(name)]);
      return [name, { bridge, http }] as const;
    };
    Promise.all(agents.map((a) => read(a.name))).then(
      (all) => live && setSnippets(Object.fromEntries(all)),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [names, tokens]);
  const act = (work: Promise<unknown>) => {
    setBusy(true);
    setError(null);
    work
      .then(refresh, (err: unknown) => setError(errorMessage(err)))
      .finally(() => setBusy(false));
  };
  return (
    <div className="agents-view">
      {loadError !== null && (
        <p className="error" role="alert">
          {t("agents.view.loadFailed", { message: errorMessage(loadError) })}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {gateway.data?.problem && (
        <p className="error" role="alert" data-testid="gateway-problem">
          {gatewayProblemText(gateway.data.problem)}
        </p>
      )}
      <AgentList
        agents={agents}
        calls={calls.data ?? {}}
        snippets={snippets}
        busy={busy}
        onAdd={(name) => act(commands.saveAgent(name, null))}
        onRemove={(name) => act(commands.removeAgent(name))}
        onDisconnect={(name) => act(commands.disconnectAgent(name))}
        onCopy={(text) => void navigator.clipboard?.writeText(text).catch(() => {})}
        onRenewToken={(name) => act(commands.renewAgentToken(name).then(() => setTokens((n) => n + 1)))}
      />
    </div>
  );
}

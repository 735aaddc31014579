import { useState, type FormEvent } from "react";
import type { AgentSummary_Serialize, AuditEntry_Serialize } from "../bindings";
import { useT } from "../i18n";
import { formatDateTime, isoTime } from "../servers/time";
import { AgentAnswers } from "./AgentAnswers";
import { AgentSetup } from "./AgentSetup";
import { AgentReach } from "./AgentReach";
import "./agents.css";
import { decisionText, outcomeText } from "../activity/decisions";

export interface AgentListProps {
  agents: AgentSummary_Serialize[];
  /** Each agent's most recent calls, newest first, by name (absent while they load). */
  calls: Record<string, AuditEntry_Serialize[] | undefined>;
  /** Each agent's configuration snippets, by name: the bridge's, and over HTTP with its token. */
  snippets: Record<string, AgentSnippets | undefined>;
  busy: boolean;
  onAdd(name: string): void;
  onRemove(name: string): void;
  onDisconnect(name: string): void;
  onCopy(text: string): void;
  /** A new token for the agent over HTTP: the one it has is refused from then on. */
  onRenewToken(name: string): void;
}

export interface AgentSnippets {
  bridge: string;
  /** None while Switchboard does not listen over HTTP. */
  http: string | null;
}

/**
 * The agents (a coding agent, an IDE, a script) that reach the servers through Switchboard: which
 * servers each may use, its recent calls as the audit trail keeps them, the entry to put in its own
 * MCP configuration, and removing it (its calls are refused from then on, its rules forgotten).
 */
export function AgentList({ agents, calls, snippets, busy, onAdd, onRemove, onDisconnect, onCopy, onRenewToken }: AgentListProps) {
  const t = useT();
  const [name, setName] = useState("");
  const taken = agents.some((a) => a.name === name.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && !taken) {
      onAdd(name.trim());
      setName("");
    }
  };
  return (
    <section aria-labelledby="agents-title" className="agents">
      <h2 id="agents-title">{t("agents.list.title")}</h2>
      <p className="muted">{t("agents.list.intro")}</p>
      <form className="agent-add" aria-label={t("agents.add.label")} onSubmit={submit}>
        <label htmlFor="agent-name">{t("agents.add.name")}</label>
        <input
          id="agent-name"
          value={name}
          placeholder="Claude Code"
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={busy || !name.trim() || taken}>
          {t("agents.add.submit")}
        </button>
        {taken && <span className="form-error">{t("agents.add.taken")}</span>}
      </form>
      {agents.length === 0 ? (
        <p className="muted">{t("agents.list.empty")}</p>
      ) : (
        <ul className="agent-list">
          {agents.map((agent) => (
            <li key={agent.name} aria-label={agent.name}>
              <div className="agent-head">
                <strong>{agent.name}</strong>
                <span className="muted">
                  {agent.servers === null
                    ? t("agents.agent.everyServer")
                    : agent.servers.length === 0
                      ? t("agents.agent.noServer")
                      : t("agents.agent.servers", { servers: agent.servers.join(", ") })}
                  {agent.toolsOff > 0 && t("agents.agent.toolsOff", { count: agent.toolsOff })}
                </span>
                {agent.connected > 0 ? (
                  <>
                    <span className="chip">{t("agents.agent.connected", { count: agent.connected })}</span>
                    <button type="button" className="button" onClick={() => onDisconnect(agent.name)}>
                      {t("agents.agent.disconnect", { name: agent.name })}
                    </button>
                  </>
                ) : (
                  <span className="muted">{t("agents.agent.notConnected")}</span>
                )}
                <button type="button" className="button danger" onClick={() => onRemove(agent.name)}>
                  {t("agents.agent.remove", { name: agent.name })}
                </button>
              </div>
              <AgentAnswers name={agent.name} />
              <AgentSetup agent={agent.name} />
              <AgentReach name={agent.name} />
              <Snippets name={agent.name} snippets={snippets[agent.name]} onCopy={onCopy} onRenewToken={onRenewToken} />
              <RecentCalls name={agent.name} calls={calls[agent.name]} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RecentCalls({ name, calls }: { name: string; calls: AuditEntry_Serialize[] | undefined }) {
  const t = useT();
  if (calls === undefined) return null;
  if (calls.length === 0) return <p className="muted">{t("agents.calls.none", { name })}</p>;
  return (
    <table className="agent-calls" aria-label={t("agents.calls.label", { name })}>
      <thead>
        <tr>
          <th>{t("agents.calls.time")}</th>
          <th>{t("agents.calls.server")}</th>
          <th>{t("agents.calls.tool")}</th>
          <th>{t("agents.calls.decision")}</th>
          <th>{t("agents.calls.outcome")}</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((call) => (
          <tr key={call.id}>
            <td className="nowrap">
              <time dateTime={isoTime(call.atMs)}>
                {formatDateTime(call.atMs)}
              </time>
            </td>
            <td>{call.server}</td>
            <td>
              <code>{call.subject}</code>
            </td>
            <td>{decisionText(call.decision)}</td>
            <td>{outcomeText(call.outcome)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An entry with its bearer token out of sight: whoever looks over the person's shoulder cannot copy it. */
export function hideToken(entry: string): string {
  return entry.replace(/(Bearer )[^"\s]+/g, "$1" + "•".repeat(12));
}

/**
 * The entries an agent's own MCP configuration needs: through the bridge, or over HTTP with its token,
 * which shows only when the person asks (Copy takes it whole).
 */
function Snippets({
  name,
  snippets,
  onCopy,
  onRenewToken,
}: {
  name: string;
  /** Not read yet: nothing shows. */
  snippets: AgentSnippets | undefined;
  onCopy(text: string): void;
  onRenewToken(name: string): void;
}) {
  const t = useT();
  const [revealed, setRevealed] = useState(false);
  if (snippets === undefined) return null;
  return (
    <>
      <div className="agent-snippet">
        <pre aria-label={t("agents.snippet.label", { name })}>{snippets.bridge}</pre>
        <button type="button" className="button" onClick={() => onCopy(snippets.bridge)}>
          {t("agents.snippet.copy", { name })}
        </button>
      </div>
      {snippets.http !== null && (
        <div className="agent-snippet">
          <pre aria-label={t("agents.snippet.httpLabel", { name })}>
            {revealed ? snippets.http : hideToken(snippets.http)}
          </pre>
          <button type="button" className="button" onClick={() => onCopy(snippets.http ?? "")}>
            {t("agents.snippet.copyHttp", { name })}
          </button>
          <button type="button" className="button" aria-pressed={revealed} onClick={() => setRevealed((r) => !r)}>
            {revealed ? t("agents.snippet.hideToken", { name }) : t("agents.snippet.showToken", { name })}
          </button>
          <button type="button" className="button" onClick={() => onRenewToken(name)}>
            {t("agents.snippet.renewToken", { name })}
          </button>
        </div>
      )}
    </>
  );
}

import { useState, type FormEvent } from "react";
import type { AgentSummary_Serialize, AuditEntry_Serialize } from "../bindings";
import { formatDateTime, isoTime } from "../servers/time";
import { AgentAnswers } from "./AgentAnswers";
import { AgentSetup } from "./AgentSetup";
import { AgentReach } from "./AgentReach";
import "./agents.css";

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
      <h2 id="agents-title">Added agents</h2>
      <p className="muted">
        An agent added here reaches every server you run through Switchboard alone, and you decide each of its tool
        calls: the dialog and the audit trail name it. Give it the entry below as its MCP server.
      </p>
      <form className="agent-add" aria-label="Add an agent" onSubmit={submit}>
        <label htmlFor="agent-name">Agent name</label>
        <input
          id="agent-name"
          value={name}
          placeholder="Claude Code"
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={busy || !name.trim() || taken}>
          Add agent
        </button>
        {taken && <span className="form-error">An agent of that name exists</span>}
      </form>
      {agents.length === 0 ? (
        <p className="muted">No agent yet: an agent not added here is refused.</p>
      ) : (
        <ul className="agent-list">
          {agents.map((agent) => (
            <li key={agent.name} aria-label={agent.name}>
              <div className="agent-head">
                <strong>{agent.name}</strong>
                <span className="muted">
                  {agent.servers === null ? "every server" : `servers: ${agent.servers.join(", ") || "none"}`}
                  {agent.toolsOff > 0 && `, ${agent.toolsOff} ${agent.toolsOff === 1 ? "tool" : "tools"} turned off for it`}
                </span>
                {agent.connected > 0 ? (
                  <>
                    <span className="chip">{agent.connected === 1 ? "Connected" : `Connected ${agent.connected} times`}</span>
                    <button type="button" className="button" onClick={() => onDisconnect(agent.name)}>
                      Disconnect {agent.name}
                    </button>
                  </>
                ) : (
                  <span className="muted">not connected</span>
                )}
                <button type="button" className="button danger" onClick={() => onRemove(agent.name)}>
                  Remove {agent.name}
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
  if (calls === undefined) return null;
  if (calls.length === 0) return <p className="muted">{name} has made no call yet.</p>;
  return (
    <table className="agent-calls" aria-label={`Recent calls of ${name}`}>
      <thead>
        <tr>
          <th>Time</th>
          <th>Server</th>
          <th>Tool</th>
          <th>Decision</th>
          <th>Outcome</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((call) => (
          <tr key={call.id}>
            <td className="nowrap">
              <time dateTime={isoTime(call.atMs)}>{formatDateTime(call.atMs)}</time>
            </td>
            <td>{call.server}</td>
            <td>
              <code>{call.subject}</code>
            </td>
            <td>{call.decision}</td>
            <td>{call.outcome}</td>
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
  const [revealed, setRevealed] = useState(false);
  if (snippets === undefined) return null;
  return (
    <>
      <div className="agent-snippet">
        <pre aria-label={`Configuration for ${name}`}>{snippets.bridge}</pre>
        <button type="button" className="button" onClick={() => onCopy(snippets.bridge)}>
          Copy the entry for {name}
        </button>
      </div>
      {snippets.http !== null && (
        <div className="agent-snippet">
          <pre aria-label={`Configuration for ${name} over HTTP`}>{revealed ? snippets.http : hideToken(snippets.http)}</pre>
          <button type="button" className="button" onClick={() => onCopy(snippets.http ?? "")}>
            Copy the HTTP entry for {name}
          </button>
          <button type="button" className="button" aria-pressed={revealed} onClick={() => setRevealed((r) => !r)}>
            {revealed ? `Hide the token of ${name}` : `Show the token of ${name}`}
          </button>
          <button type="button" className="button" onClick={() => onRenewToken(name)}>
            New token for {name}
          </button>
        </div>
      )}
    </>
  );
}

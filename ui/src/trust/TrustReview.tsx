import type { SamplingRuleShown_Serialize as SamplingRuleShown, SharedFolders, StandingRule } from "../bindings";
import { formatDateTime, isoTime } from "../servers/time";
import "./trust.css";

export interface TrustReviewProps {
  rules: StandingRule[];
  sampling: SamplingRuleShown[];
  folders: SharedFolders[];
  onRevokeRule(rule: StandingRule): void;
  onRevokeSampling(server: string): void;
  onRevokeFolders(server: string): void;
}

/** Every standing rule and shared folder, each revocable: what the person has allowed, in one place. */
export function TrustReview({
  rules,
  sampling,
  folders,
  onRevokeRule,
  onRevokeSampling,
  onRevokeFolders,
}: TrustReviewProps) {
  return (
    <div className="trust-review">
      <section aria-labelledby="rules-title">
        <h2 id="rules-title">Standing rules</h2>
        {rules.length === 0 ? (
          <p className="muted">No rule: every tool call a model or an agent makes, and every read of an agent, is asked about.</p>
        ) : (
          <div className="table-scroll">
            <table className="trust-table">
              <caption>Calls decided without asking you</caption>
              <thead>
                <tr>
                  {["Server", "Tool", "Decision", "Scope", "Since", "Used", "Holds", ""].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rules.map((rule) => (
                  <RuleRow
                    key={`${rule.scope}/${rule.server}/${rule.reads ? "reads" : (rule.tool ?? "")}/${rule.agent ?? ""}`}
                    rule={rule}
                    onRevoke={onRevokeRule}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="sampling-title">
        <h2 id="sampling-title">Sampling without review</h2>
        {sampling.length === 0 ? (
          <p className="muted">Every sampling request a server makes is shown to you before a reply goes back.</p>
        ) : (
          <ul className="sampling-rules">
            {sampling.map((rule) => (
              <li key={rule.server}>
                <strong>{rule.server}</strong>:{" "}
                {rule.model && rule.provider ? `replies by ${rule.model} (${rule.provider})` : "the model's replies"} go
                back unreviewed, since{" "}
                <time dateTime={isoTime(rule.sinceMs)}>{formatDateTime(rule.sinceMs)}</time>, {times(rule.uses)}
                {!rule.holds && (
                  <span className="muted">
                    {rule.model
                      ? " (no longer holds: the server or its model changed, you will be asked)"
                      : " (no longer holds: no model was chosen, allow it again under a reply you review)"}
                  </span>
                )}{" "}
                <button
                  type="button"
                  className="button"
                  aria-label={`Review sampling of ${rule.server} again`}
                  onClick={() => onRevokeSampling(rule.server)}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="folders-title">
        <h2 id="folders-title">Shared folders</h2>
        {folders.length === 0 ? (
          <p className="muted">No server can see any of your folders.</p>
        ) : (
          <ul className="shared-folders">
            {folders.map(({ server, folders: paths }) => (
              <li key={server}>
                <strong>{server}</strong> sees
                <ul>
                  {paths.map((path) => (
                    <li key={path}>
                      <code>{path}</code>
                    </li>
                  ))}
                </ul>
                <button type="button" className="button danger" onClick={() => onRevokeFolders(server)}>
                  Stop sharing with {server}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function RuleRow({ rule, onRevoke }: { rule: StandingRule; onRevoke: TrustReviewProps["onRevokeRule"] }) {
  const what = rule.reads ? "reading" : (rule.tool ?? "every tool");
  const subject = `${what} of ${rule.server}${rule.agent ? ` for ${rule.agent}` : ""}`;
  const since = rule.sinceMs;
  const uses = rule.uses;
  return (
    <tr className={rule.holds ? undefined : "stale"}>
      <td>{rule.server}</td>
      <td>
        {rule.reads ? <em>its resources and prompts</em> : rule.tool ? <code>{rule.tool}</code> : <em>every tool</em>}
        {rule.agent && (
          <span className="muted">
            {" "}
            ({rule.reads ? "reads" : "calls"} of {rule.agent})
          </span>
        )}
      </td>
      <td className={rule.allow ? "allowed" : "denied"}>{rule.allow ? "Allowed" : "Denied"}</td>
      <td>{rule.scope === "always" ? "Always" : "Until quit"}</td>
      <td className="nowrap">
        <time dateTime={isoTime(since)}>{formatDateTime(since)}</time>
      </td>
      <td>{times(uses)}</td>
      <td>{rule.holds ? "Yes" : "No: changed since, you will be asked"}</td>
      <td>
        <button
          type="button"
          className="button"
          aria-label={`Revoke the rule for ${subject}`}
          onClick={() => onRevoke(rule)}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

function times(uses: number): string {
  return uses === 1 ? "once" : `${uses} times`;
}

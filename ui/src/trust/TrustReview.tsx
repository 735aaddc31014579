import type { SamplingRuleShown_Serialize as SamplingRuleShown, SharedFolders, StandingRule } from "../bindings";
import { useT, type MessageId } from "../i18n";
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

/** The rules table's column headers; the last, over the Revoke buttons, has none. */
const RULE_COLUMNS: readonly (MessageId | null)[] = [
  "trust.rules.column.server",
  "trust.rules.column.tool",
  "trust.rules.column.decision",
  "trust.rules.column.scope",
  "trust.rules.column.since",
  "trust.rules.column.used",
  "trust.rules.column.holds",
  null,
];

/** Every standing rule and shared folder, each revocable: what the person has allowed, in one place. */
export function TrustReview({
  rules,
  sampling,
  folders,
  onRevokeRule,
  onRevokeSampling,
  onRevokeFolders,
}: TrustReviewProps) {
  const t = useT();
  return (
    <div className="trust-review">
      <section aria-labelledby="rules-title">
        <h2 id="rules-title">{t("trust.rules.title")}</h2>
        {rules.length === 0 ? (
          <p className="muted">{t("trust.rules.empty")}</p>
        ) : (
          <div className="table-scroll">
            <table className="trust-table">
              <caption>{t("trust.rules.caption")}</caption>
              <thead>
                <tr>
                  {RULE_COLUMNS.map((h, i) => (
                    <th key={h ?? i} scope="col">
                      {h && t(h)}
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
        <h2 id="sampling-title">{t("trust.sampling.title")}</h2>
        {sampling.length === 0 ? (
          <p className="muted">{t("trust.sampling.empty")}</p>
        ) : (
          <ul className="sampling-rules">
            {sampling.map((rule) => (
              <li key={rule.server}>
                <strong>{rule.server}</strong>
                {rule.model && rule.provider
                  ? t("trust.sampling.byModel", { model: rule.model, provider: rule.provider })
                  : t("trust.sampling.anyModel")}{" "}
                <time dateTime={isoTime(rule.sinceMs)}>{formatDateTime(rule.sinceMs)}</time>
                {t("trust.sampling.uses", { count: rule.uses })}
                {!rule.holds && (
                  <span className="muted">
                    {" "}
                    {rule.model ? t("trust.sampling.modelChanged") : t("trust.sampling.noModel")}
                  </span>
                )}{" "}
                <button
                  type="button"
                  className="button"
                  aria-label={t("trust.sampling.revokeLabel", { server: rule.server })}
                  onClick={() => onRevokeSampling(rule.server)}
                >
                  {t("trust.revoke")}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="folders-title">
        <h2 id="folders-title">{t("trust.folders.title")}</h2>
        {folders.length === 0 ? (
          <p className="muted">{t("trust.folders.empty")}</p>
        ) : (
          <ul className="shared-folders">
            {folders.map(({ server, folders: paths }) => (
              <li key={server}>
                <strong>{server}</strong> {t("trust.folders.sees")}
                <ul>
                  {paths.map((path) => (
                    <li key={path}>
                      <code>{path}</code>
                    </li>
                  ))}
                </ul>
                <button type="button" className="button danger" onClick={() => onRevokeFolders(server)}>
                  {t("trust.folders.stop", { server })}
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
  const t = useT();
  const what = rule.reads ? t("trust.rule.reading") : (rule.tool ?? t("trust.rule.everyTool"));
  const revokeLabel = rule.agent
    ? t("trust.rule.revokeForAgentLabel", { what, server: rule.server, agent: rule.agent })
    : t("trust.rule.revokeLabel", { what, server: rule.server });
  const since = rule.sinceMs;
  const uses = rule.uses;
  return (
    <tr className={rule.holds ? undefined : "stale"}>
      <td>{rule.server}</td>
      <td>
        {rule.reads ? (
          <em>{t("trust.rule.resourcesAndPrompts")}</em>
        ) : rule.tool ? (
          <code>{rule.tool}</code>
        ) : (
          <em>{t("trust.rule.everyTool")}</em>
        )}
        {rule.agent && (
          <span className="muted">
            {" "}
            {rule.reads ? t("trust.rule.readsOf", { agent: rule.agent }) : t("trust.rule.callsOf", { agent: rule.agent })}
          </span>
        )}
      </td>
      <td className={rule.allow ? "allowed" : "denied"}>{rule.allow ? t("trust.rule.allowed") : t("trust.rule.denied")}</td>
      <td>{rule.scope === "always" ? t("trust.rule.always") : t("trust.rule.untilQuit")}</td>
      <td className="nowrap">
        <time dateTime={isoTime(since)}>{formatDateTime(since)}</time>
      </td>
      <td>{t("trust.uses", { count: uses })}</td>
      <td>{rule.holds ? t("trust.rule.holds") : t("trust.rule.stale")}</td>
      <td>
        <button
          type="button"
          className="button"
          aria-label={revokeLabel}
          onClick={() => onRevoke(rule)}
        >
          {t("trust.revoke")}
        </button>
      </td>
    </tr>
  );
}

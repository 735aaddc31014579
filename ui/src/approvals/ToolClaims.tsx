import { useId } from "react";
import type { ToolAnnotations } from "../mcp/schema";
import { tx, useT, type MessageId } from "../i18n";
import { ServerName } from "./ServerName";

type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

/** What each hint says when true and when false, and whether "true" calls for care. */
const HINTS: Array<{ key: Hint; yes: MessageId; no: MessageId; risky: boolean }> = [
  { key: "readOnlyHint", yes: "approvals.claims.readOnly.yes", no: "approvals.claims.readOnly.no", risky: false },
  {
    key: "destructiveHint",
    yes: "approvals.claims.destructive.yes",
    no: "approvals.claims.destructive.no",
    risky: true,
  },
  {
    key: "idempotentHint",
    yes: "approvals.claims.idempotent.yes",
    no: "approvals.claims.idempotent.no",
    risky: false,
  },
  {
    key: "openWorldHint",
    yes: "approvals.claims.openWorld.yes",
    no: "approvals.claims.openWorld.no",
    risky: true,
  },
];

/** The tool's annotations, shown as the unverified claims of the server that made them. */
export function ToolClaims({
  server,
  annotations,
}: {
  server: string;
  annotations: ToolAnnotations | null | undefined;
}) {
  const claims = HINTS.filter(({ key }) => typeof annotations?.[key] === "boolean");
  const title = annotations?.title;
  const headingId = useId();
  const t = useT();
  return (
    <section className="tool-claims" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {tx("approvals.claims.heading", { server: <ServerName name={server} /> })}
      </h3>
      {claims.length === 0 && !title ? (
        <p className="muted">{t("approvals.claims.none")}</p>
      ) : (
        <ul>
          {title && (
            <li>
              {t("approvals.claims.title", { title })} <code className="muted">title</code>
            </li>
          )}
          {claims.map(({ key, yes, no, risky }) => {
            const value = annotations?.[key] === true;
            return (
              <li key={key} className={value && risky ? "claim-risky" : undefined}>
                {t(value ? yes : no)} <code className="muted">{`${key}: ${String(value)}`}</code>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

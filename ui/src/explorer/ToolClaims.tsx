import { useId } from "react";
import { useT, type MessageId } from "../i18n";
import type { ToolAnnotations } from "../mcp/schema";
import "./explorer.css";

type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

/** How each hint reads when the server sets it to true or false. */
const HINTS: readonly { hint: Hint; yes: MessageId; no: MessageId }[] = [
  { hint: "readOnlyHint", yes: "explorer.claims.readOnly", no: "explorer.claims.notReadOnly" },
  { hint: "destructiveHint", yes: "explorer.claims.destructive", no: "explorer.claims.notDestructive" },
  { hint: "idempotentHint", yes: "explorer.claims.idempotent", no: "explorer.claims.notIdempotent" },
  { hint: "openWorldHint", yes: "explorer.claims.openWorld", no: "explorer.claims.closedWorld" },
];

/**
 * The behaviour hints a server gives about its tool. Only the hints it actually set are listed
 * (defaults would put words in its mouth), and they are labelled as its claims: nothing checks them.
 */
export function ToolClaims({ server, annotations }: { server: string; annotations: ToolAnnotations | undefined }) {
  const t = useT();
  const headingId = useId();
  const claims = HINTS.flatMap(({ hint, yes, no }) => {
    const value = annotations?.[hint];
    return typeof value === "boolean" ? [value ? yes : no] : [];
  });
  if (claims.length === 0) return null;
  return (
    <section className="tool-claims" aria-labelledby={headingId}>
      <h3 id={headingId}>{t("explorer.claims.heading", { server })}</h3>
      <ul>
        {claims.map((claim) => (
          <li key={claim}>{t(claim)}</li>
        ))}
      </ul>
      <p className="muted">{t("explorer.claims.note")}</p>
    </section>
  );
}

import { useId } from "react";
import type { ToolAnnotations } from "../mcp/schema";
import "./explorer.css";

type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

/** How each hint reads when the server sets it to true or false. */
const HINTS: readonly { hint: Hint; yes: string; no: string }[] = [
  { hint: "readOnlyHint", yes: "Only reads; changes nothing", no: "May change its environment" },
  { hint: "destructiveHint", yes: "May delete or overwrite things", no: "Only adds; deletes nothing" },
  { hint: "idempotentHint", yes: "Calling again with the same arguments has no further effect", no: "Calling again may have further effects" },
  { hint: "openWorldHint", yes: "Reaches outside systems", no: "Stays within its own domain" },
];

/**
 * The behaviour hints a server gives about its tool. Only the hints it actually set are listed
 * (defaults would put words in its mouth), and they are labelled as its claims: nothing checks them.
 */
export function ToolClaims({ server, annotations }: { server: string; annotations: ToolAnnotations | undefined }) {
  const headingId = useId();
  const claims = HINTS.flatMap(({ hint, yes, no }) => {
    const value = annotations?.[hint];
    return typeof value === "boolean" ? [value ? yes : no] : [];
  });
  if (claims.length === 0) return null;
  return (
    <section className="tool-claims" aria-labelledby={headingId}>
      <h3 id={headingId}>Claims by {server}</h3>
      <ul>
        {claims.map((claim) => (
          <li key={claim}>{claim}</li>
        ))}
      </ul>
      <p className="muted">The server says so; the app cannot verify it.</p>
    </section>
  );
}

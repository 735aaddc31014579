import { useId } from "react";
import type { ToolAnnotations } from "../mcp/schema";
import { ServerName } from "./ServerName";

type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

/** What each hint says when true and when false, and whether "true" calls for care. */
const HINTS: Array<{ key: Hint; yes: string; no: string; risky: boolean }> = [
  { key: "readOnlyHint", yes: "Only reads: changes nothing", no: "May change things", risky: false },
  { key: "destructiveHint", yes: "May delete or overwrite things", no: "Only adds, never deletes", risky: true },
  {
    key: "idempotentHint",
    yes: "Calling it again has no further effect",
    no: "Calling it again may do more",
    risky: false,
  },
  {
    key: "openWorldHint",
    yes: "Reaches outside systems, such as the internet",
    no: "Stays within its own data",
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
  return (
    <section className="tool-claims" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Claims made by <ServerName name={server} />, not verified
      </h3>
      {claims.length === 0 && !title ? (
        <p className="muted">The server claims nothing about what this tool does.</p>
      ) : (
        <ul>
          {title && (
            <li>
              Title: {title} <code className="muted">title</code>
            </li>
          )}
          {claims.map(({ key, yes, no, risky }) => {
            const value = annotations?.[key] === true;
            return (
              <li key={key} className={value && risky ? "claim-risky" : undefined}>
                {value ? yes : no} <code className="muted">{`${key}: ${String(value)}`}</code>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

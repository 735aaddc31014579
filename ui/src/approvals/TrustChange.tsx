import { diffLines } from "diff";
import type { Changed, DefinitionChange, ToolDefinition } from "../bindings";
import { formatDateTime } from "../servers/time";

/**
 * Why a call the person once allowed is asked about again: the server is launched or reached
 * otherwise, or the tool now reads otherwise (a server may rewrite a tool after it was allowed
 * to slip new instructions to the model). The tool's change is shown as a line diff, as text.
 */
export function TrustChange({ changed }: { changed: Changed }) {
  const when = changed.allowedMs ? formatDateTime(changed.allowedMs) : undefined;
  return (
    <section className="trust-change" role="alert" aria-label="Changed since you allowed it">
      <h3>Changed since you allowed it</h3>
      <p>
        You allowed this{when ? ` on ${when}` : ""}, but not as it is now: your earlier choice no longer applies.
        Read what changed before you decide.
      </p>
      {changed.server && (
        <p className="trust-change-server">
          The server is now launched or reached differently: its command, arguments, working folder, environment
          variable names or address changed.
        </p>
      )}
      {changed.newTool && (
        <p>
          This tool is new: the server did not list it when you allowed all of its tools. Read what it says before you
          decide.
        </p>
      )}
      {changed.tool && <DefinitionDiff change={changed.tool} />}
    </section>
  );
}

function DefinitionDiff({ change }: { change: DefinitionChange }) {
  const parts = diffLines(readable(change.before), readable(change.after));
  return (
    <pre className="definition-diff" aria-label="What changed in the tool">
      {parts.map((part, i) => {
        if (part.added) return <ins key={i}>{marked(part.value, "+ ")}</ins>;
        if (part.removed) return <del key={i}>{marked(part.value, "- ")}</del>;
        return <span key={i}>{marked(part.value, "  ")}</span>;
      })}
    </pre>
  );
}

/** What a person reads of a tool, a fact per line, with its JSON in a stable key order. */
export function readable(tool: ToolDefinition): string {
  const json = (value: unknown) => JSON.stringify(sortedKeys(value ?? {}), null, 2);
  return [
    `Title: ${tool.title ?? "(none)"}`,
    "Description:",
    tool.description ?? "(none)",
    "Input schema:",
    json(tool.inputSchema),
    "Annotations (the server's claims):",
    json(tool.annotations),
    "",
  ].join("\n");
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sortedKeys(inner)]));
  }
  return value;
}

function marked(lines: string, mark: string): string {
  return lines.replace(/^(?=.)/gm, mark);
}

import { diffLines } from "diff";
import type { Changed, DefinitionChange, ToolDefinition } from "../bindings";
import { t as translate, useT } from "../i18n";
import { formatDateTime } from "../servers/time";

/**
 * Why a call the person once allowed is asked about again: the server is launched or reached
 * otherwise, or the tool now reads otherwise (a server may rewrite a tool after it was allowed
 * to slip new instructions to the model). The tool's change is shown as a line diff, as text.
 */
export function TrustChange({ changed }: { changed: Changed }) {
  const t = useT();
  const when = changed.allowedMs ? formatDateTime(changed.allowedMs) : undefined;
  return (
    <section className="trust-change" role="alert" aria-label={t("approvals.trustChange.title")}>
      <h3>{t("approvals.trustChange.title")}</h3>
      <p>{when ? t("approvals.trustChange.allowedOn", { when }) : t("approvals.trustChange.allowed")}</p>
      {changed.server && <p className="trust-change-server">{t("approvals.trustChange.server")}</p>}
      {changed.newTool && <p>{t("approvals.trustChange.newTool")}</p>}
      {changed.tool && <DefinitionDiff change={changed.tool} />}
    </section>
  );
}

function DefinitionDiff({ change }: { change: DefinitionChange }) {
  const t = useT();
  const parts = diffLines(readable(change.before), readable(change.after));
  return (
    <pre className="definition-diff" aria-label={t("approvals.trustChange.diff")}>
      {parts.map((part, i) => {
        if (part.added) return <ins key={i}>{marked(part.value, "+ ")}</ins>;
        if (part.removed) return <del key={i}>{marked(part.value, "- ")}</del>;
        return <span key={i}>{marked(part.value, "  ")}</span>;
      })}
    </pre>
  );
}

/**
 * What a person reads of a tool, a fact per line, with its JSON in a stable key order; the
 * headings in the window's language (call it while rendering).
 */
export function readable(tool: ToolDefinition): string {
  const json = (value: unknown) => JSON.stringify(sortedKeys(value ?? {}), null, 2);
  const none = translate("approvals.trustChange.none");
  return [
    translate("approvals.trustChange.fieldTitle", { title: tool.title ?? none }),
    translate("approvals.trustChange.description"),
    tool.description ?? none,
    translate("approvals.trustChange.inputSchema"),
    json(tool.inputSchema),
    translate("approvals.trustChange.annotations"),
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

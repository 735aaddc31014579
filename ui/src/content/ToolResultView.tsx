import { useT } from "../i18n";
import type { CallToolResult, ResourceLink } from "../mcp/schema";
import { ContentView } from "./ContentView";
import { JsonView } from "./JsonView";
import "./content.css";

interface Props {
  result: CallToolResult;
  onOpenLink?: ((url: string) => void) | undefined;
  onReadResource?: ((link: ResourceLink) => void) | undefined;
}

/** A tool's answer: its content, its structured output and its metadata, errors made plain. */
export function ToolResultView({ result, onOpenLink, onReadResource }: Props) {
  const t = useT();
  const blocks = Array.isArray(result.content) ? result.content : [];
  const failed = result.isError === true;
  return (
    <section
      className={failed ? "tool-result tool-result-failed" : "tool-result"}
      aria-label={t("content.result.label")}
    >
      {failed && (
        <p className="tool-result-error" role="alert">
          {t("content.result.failed")}
        </p>
      )}
      {blocks.length > 0 ? (
        <ContentView blocks={blocks} onOpenLink={onOpenLink} onReadResource={onReadResource} />
      ) : (
        <p className="muted">{t("content.result.empty")}</p>
      )}
      {result.structuredContent !== undefined && (
        // Tools usually repeat their structured output as text, so it starts folded unless it is all there is.
        <details className="content-disclosure" open={blocks.length === 0}>
          <summary>{t("content.result.structured")}</summary>
          <JsonView value={result.structuredContent} />
        </details>
      )}
      {result._meta !== undefined && (
        <details className="content-disclosure">
          <summary>{t("content.result.meta")}</summary>
          <JsonView value={result._meta} />
        </details>
      )}
    </section>
  );
}

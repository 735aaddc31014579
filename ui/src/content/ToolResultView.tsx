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
  const blocks = Array.isArray(result.content) ? result.content : [];
  const failed = result.isError === true;
  return (
    <section className={failed ? "tool-result tool-result-failed" : "tool-result"} aria-label="Tool result">
      {failed && (
        <p className="tool-result-error" role="alert">
          The tool reported an error
        </p>
      )}
      {blocks.length > 0 ? (
        <ContentView blocks={blocks} onOpenLink={onOpenLink} onReadResource={onReadResource} />
      ) : (
        <p className="muted">The tool returned no content.</p>
      )}
      {result.structuredContent !== undefined && (
        // Tools usually repeat their structured output as text, so it starts folded unless it is all there is.
        <details className="content-disclosure" open={blocks.length === 0}>
          <summary>Structured content</summary>
          <JsonView value={result.structuredContent} />
        </details>
      )}
      {result._meta !== undefined && (
        <details className="content-disclosure">
          <summary>Metadata (_meta)</summary>
          <JsonView value={result._meta} />
        </details>
      )}
    </section>
  );
}

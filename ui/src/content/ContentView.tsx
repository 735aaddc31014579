import { useT } from "../i18n";
import type { ContentBlock, ResourceLink } from "../mcp/schema";
import { AnnotationsNote } from "./AnnotationsNote";
import { BinaryBody } from "./BinaryBody";
import { JsonView } from "./JsonView";
import { ResourceContentsItem } from "./ResourceContentsView";
import { ResourceLinkCard } from "./ResourceLinkCard";
import { TextBody } from "./TextBody";
import "./content.css";

interface Props {
  blocks: ContentBlock[];
  /** Where links in markdown go; without it they are shown, not followed. */
  onOpenLink?: ((url: string) => void) | undefined;
  /** Offers a "Read" button on resource links when given. */
  onReadResource?: ((link: ResourceLink) => void) | undefined;
}

/** MCP content blocks (from tool results, prompts, messages) as a person expects to see them. */
export function ContentView({ blocks, onOpenLink, onReadResource }: Props) {
  return (
    <div className="content-view">
      {blocks.map((block, index) => (
        <div className="content-block" key={index}>
          <BlockBody block={block} onOpenLink={onOpenLink} onReadResource={onReadResource} />
          <AnnotationsNote annotations={block.annotations} />
        </div>
      ))}
    </div>
  );
}

function BlockBody({ block, onOpenLink, onReadResource }: { block: ContentBlock } & Omit<Props, "blocks">) {
  // The blocks come from a server: a field of the wrong type falls through to the raw view.
  switch (block.type) {
    case "text":
      if (typeof block.text !== "string") break;
      return <TextBody text={block.text} onOpenLink={onOpenLink} />;
    case "image":
    case "audio":
      if (typeof block.data !== "string") break;
      return <BinaryBody data={block.data} mimeType={block.mimeType} />;
    case "resource":
      if (typeof block.resource !== "object" || block.resource === null) break;
      return <ResourceContentsItem contents={block.resource} onOpenLink={onOpenLink} />;
    case "resource_link":
      return <ResourceLinkCard link={block} onReadResource={onReadResource} />;
  }
  return <UnknownBlock block={block} />;
}

/** A block this app cannot read (a newer revision's kind, or a malformed one): shown raw. */
function UnknownBlock({ block }: { block: unknown }) {
  const t = useT();
  const type = (block as { type?: unknown } | null)?.type;
  return (
    <div>
      <p className="content-meta">
        {typeof type === "string" ? t("content.unknown.ofType", { type }) : t("content.unknown.untyped")}
      </p>
      <JsonView value={block} />
    </div>
  );
}

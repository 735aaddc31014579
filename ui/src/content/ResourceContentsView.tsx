import { useT } from "../i18n";
import type { ReadResourceResult } from "../mcp/schema";
import { isJsonMime, normalizeMime } from "./binary";
import { BinaryBody } from "./BinaryBody";
import { JsonView } from "./JsonView";
import { TextBody } from "./TextBody";
import "./content.css";

type ResourceContents = ReadResourceResult["contents"][number];

interface Props {
  contents: ReadResourceResult["contents"];
  onOpenLink?: ((url: string) => void) | undefined;
}

/** What a resource read returned: each part with its URI and type. */
export function ResourceContentsView({ contents, onOpenLink }: Props) {
  const t = useT();
  if (contents.length === 0) return <p className="muted">{t("content.resource.empty")}</p>;
  return (
    <div className="resource-contents">
      {contents.map((item, index) => (
        <ResourceContentsItem key={index} contents={item} onOpenLink={onOpenLink} />
      ))}
    </div>
  );
}

/** One part of a resource, also used for resources embedded in tool results and prompts. */
export function ResourceContentsItem({
  contents,
  onOpenLink,
}: {
  contents: ResourceContents;
  onOpenLink?: ((url: string) => void) | undefined;
}) {
  return (
    <div className="resource-item">
      <p className="resource-item-head">
        <code className="resource-uri">{contents.uri}</code>
        {contents.mimeType && <span className="content-meta"> {contents.mimeType}</span>}
      </p>
      <ResourceBody contents={contents} onOpenLink={onOpenLink} />
    </div>
  );
}

function ResourceBody({
  contents,
  onOpenLink,
}: {
  contents: ResourceContents;
  onOpenLink: ((url: string) => void) | undefined;
}) {
  const mime = normalizeMime(contents.mimeType);
  if ("text" in contents && typeof contents.text === "string") {
    const json = isJsonMime(mime) ? parseJson(contents.text) : undefined;
    if (json !== undefined) return <JsonView value={json} />;
    // Declared markdown gets the switch; other text only if it looks like markdown.
    const markdown = mime === "text/markdown" ? true : undefined;
    return <TextBody text={contents.text} markdown={markdown} onOpenLink={onOpenLink} />;
  }
  if ("blob" in contents && typeof contents.blob === "string") {
    return <BinaryBody data={contents.blob} mimeType={contents.mimeType} />;
  }
  // Neither text nor blob: the server sent something off-schema; show it as it came.
  return <JsonView value={contents} />;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

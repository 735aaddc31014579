import { useT } from "../i18n";
import type { ResourceLink } from "../mcp/schema";
import { formatBytes } from "./binary";
import "./content.css";

interface Props {
  link: ResourceLink;
  onReadResource?: ((link: ResourceLink) => void) | undefined;
}

/** A pointer to a resource the server can read, with a way to read it when the caller offers one. */
export function ResourceLinkCard({ link, onReadResource }: Props) {
  const t = useT();
  const size = typeof link.size === "number" ? formatBytes(link.size) : undefined;
  const facts =
    link.mimeType && size ? t("content.link.typeAndSize", { type: link.mimeType, size }) : link.mimeType || size;
  return (
    <div className="resource-link">
      <p className="resource-link-name">
        <strong>{link.title ?? link.name}</strong>
        {link.title && link.title !== link.name && <code className="content-meta"> {link.name}</code>}
      </p>
      <p>
        <code className="resource-uri">{link.uri}</code>
        {facts && <span className="content-meta"> {facts}</span>}
      </p>
      {link.description && <p className="resource-link-description">{link.description}</p>}
      {onReadResource && (
        <button
          type="button"
          aria-label={t("content.link.readLabel", { uri: link.uri })}
          onClick={() => onReadResource(link)}
        >
          {t("content.link.read")}
        </button>
      )}
    </div>
  );
}

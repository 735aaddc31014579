import { useId } from "react";
import type { ReadResourceResult, Resource } from "../mcp/schema";
import { AnnotationsNote } from "../content/AnnotationsNote";
import { formatBytes } from "../content/binary";
import { ResourceContentsView } from "../content/ResourceContentsView";
import { SafeMarkdown } from "../content/SafeMarkdown";
import { tx, useT } from "../i18n";
import { DetailHeader } from "./DetailHeader";
import { ErrorNote } from "./ErrorNote";
import "./explorer.css";
import { formatDateTime } from "../servers/time";

interface Props {
  server: string;
  resource: Resource;
  onRead(): void;
  contents?: ReadResourceResult["contents"] | null;
  subscribed: boolean;
  /** Whether the server offers subscriptions to resource updates. */
  canSubscribe: boolean;
  onToggleSubscribe(): void;
  /** When the server last said the resource changed (ms since the epoch). */
  updatedAt?: number | null;
  error?: string | null;
  onOpenLink?(url: string): void;
}

/** One resource: what it is, reading it, and following its updates. */
export function ResourceDetail(props: Props) {
  const { server, resource, onRead, contents, subscribed, canSubscribe, onToggleSubscribe, updatedAt, error, onOpenLink } = props;
  const t = useT();
  const headingId = useId();
  const facts = [resource.mimeType, typeof resource.size === "number" ? formatBytes(resource.size) : undefined].filter(Boolean);
  return (
    <article className="explorer-item" aria-labelledby={headingId}>
      <DetailHeader kind="resource" title={resource.title ?? resource.name} name={resource.name} server={server} headingId={headingId} />
      <p>
        <code className="detail-uri">{resource.uri}</code>
        {facts.length > 0 && <span className="muted"> {facts.join(", ")}</span>}
      </p>
      {resource.description && <SafeMarkdown text={resource.description} onOpenLink={onOpenLink} />}
      <AnnotationsNote annotations={resource.annotations} />
      <div className="detail-actions">
        <button type="button" className="primary" onClick={onRead}>
          {t("explorer.resource.read")}
        </button>
        {canSubscribe && (
          <button type="button" onClick={onToggleSubscribe}>
            {subscribed ? t("explorer.resource.unsubscribe") : t("explorer.resource.subscribe")}
          </button>
        )}
      </div>
      {typeof updatedAt === "number" && Number.isFinite(updatedAt) && (
        <p className="muted" role="status">
          {tx("explorer.resource.updated", {
            at: formatDateTime(updatedAt),
            time: (chunks) => <time dateTime={new Date(updatedAt).toISOString()}>{chunks}</time>,
          })}
        </p>
      )}
      <ErrorNote error={error} />
      {contents && <ResourceContentsView contents={contents} onOpenLink={onOpenLink} />}
    </article>
  );
}

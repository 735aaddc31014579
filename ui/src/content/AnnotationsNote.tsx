import type { Annotations } from "../mcp/schema";
import "./content.css";
import { formatDateTime } from "../servers/time";

/** The hints a server attached to content (who it is for, how much it matters), said quietly. */
export function AnnotationsNote({ annotations }: { annotations: Annotations | undefined }) {
  if (!annotations) return null;
  const parts = [
    audienceText(annotations.audience),
    typeof annotations.priority === "number" ? `priority ${annotations.priority}` : null,
    annotations.lastModified ? `modified ${modifiedText(annotations.lastModified)}` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  const text = parts.join(" · ");
  return <p className="content-annotations">{text.charAt(0).toUpperCase() + text.slice(1)}</p>;
}

function audienceText(audience: Annotations["audience"]): string | null {
  if (!Array.isArray(audience) || audience.length === 0) return null;
  return `for the ${audience.join(" and the ")}`;
}

function modifiedText(lastModified: string): string {
  const when = new Date(lastModified);
  return Number.isNaN(when.getTime()) ? lastModified : formatDateTime(when.getTime());
}

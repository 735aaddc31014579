import type { Annotations } from "../mcp/schema";
import "./content.css";
import { t, useLocale, useT, type Locale } from "../i18n";
import { formatDateTime } from "../servers/time";

/** The hints a server attached to content (who it is for, how much it matters), said quietly. */
export function AnnotationsNote({ annotations }: { annotations: Annotations | undefined }) {
  const t = useT();
  const locale = useLocale();
  if (!annotations) return null;
  const parts = [
    audienceText(annotations.audience, locale),
    typeof annotations.priority === "number"
      ? t("content.annotations.priority", { priority: String(annotations.priority) })
      : null,
    annotations.lastModified
      ? t("content.annotations.modified", { when: modifiedText(annotations.lastModified) })
      : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  const text = parts.join(" · ");
  return <p className="content-annotations">{text.charAt(0).toUpperCase() + text.slice(1)}</p>;
}

/** The roles a server names (the protocol's "user" and "assistant", or others it made up). */
function roleText(role: string): string {
  if (role === "user") return t("content.annotations.user");
  if (role === "assistant") return t("content.annotations.assistant");
  return t("content.annotations.otherRole", { role });
}

function audienceText(audience: Annotations["audience"], locale: Locale): string | null {
  if (!Array.isArray(audience) || audience.length === 0) return null;
  const roles = audience.map((role) => roleText(String(role)));
  return t("content.annotations.for", { audience: new Intl.ListFormat(locale, { type: "conjunction" }).format(roles) });
}

function modifiedText(lastModified: string): string {
  const when = new Date(lastModified);
  return Number.isNaN(when.getTime()) ? lastModified : formatDateTime(when.getTime());
}

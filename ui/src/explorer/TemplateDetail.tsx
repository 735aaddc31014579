import { useId, type FormEvent } from "react";
import type { ReadResourceResult, ResourceTemplate } from "../mcp/schema";
import { ResourceContentsView } from "../content/ResourceContentsView";
import { SafeMarkdown } from "../content/SafeMarkdown";
import { ArgumentFields, requiredFilled, type ArgumentField } from "./ArgumentFields";
import { tx, useT } from "../i18n";
import { DetailHeader } from "./DetailHeader";
import { ErrorNote } from "./ErrorNote";
import { expandTemplate, templateFields } from "./uriTemplate";
import "./explorer.css";

interface Props {
  server: string;
  template: ResourceTemplate;
  values: Record<string, string>;
  onValues(v: Record<string, string>): void;
  complete(arg: string, value: string): Promise<string[]>;
  onRead(uri: string): void;
  contents?: ReadResourceResult["contents"] | null;
  error?: string | null;
  onOpenLink?(url: string): void;
}

/** A resource template: fill in its variables (with completions), see the URI, read it. */
export function TemplateDetail({ server, template, values, onValues, complete, onRead, contents, error, onOpenLink }: Props) {
  const t = useT();
  const headingId = useId();
  const fields: ArgumentField[] = templateFields(template.uriTemplate).map(({ name, optional }) => ({
    name,
    label: name,
    required: !optional,
  }));
  const uri = expandTemplate(template.uriTemplate, values);
  const ready = requiredFilled(fields, values);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) onRead(uri);
  };
  return (
    <article className="explorer-item" aria-labelledby={headingId}>
      <DetailHeader
        kind="template"
        title={template.title ?? template.name}
        name={template.name}
        server={server}
        headingId={headingId}
      />
      <p>
        <code className="detail-uri">{template.uriTemplate}</code>
        {template.mimeType && <span className="muted"> {template.mimeType}</span>}
      </p>
      {template.description && <SafeMarkdown text={template.description} onOpenLink={onOpenLink} />}
      <form className="detail-form" onSubmit={submit} aria-label={t("explorer.template.variables")}>
        <ArgumentFields fields={fields} values={values} onValues={onValues} complete={complete} />
        <p className="template-uri">
          {tx("explorer.template.uri", { uri, code: (chunks) => <code className="detail-uri">{chunks}</code> })}
        </p>
        <div className="detail-actions">
          <button type="submit" className="primary" disabled={!ready}>
            {t("explorer.template.read")}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {contents && <ResourceContentsView contents={contents} onOpenLink={onOpenLink} />}
    </article>
  );
}

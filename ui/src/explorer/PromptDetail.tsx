import { useId, type FormEvent } from "react";
import type { GetPromptResult, Prompt, PromptMessage, ResourceLink } from "../mcp/schema";
import { ContentView } from "../content/ContentView";
import { t as translate, useT } from "../i18n";
import { SafeMarkdown } from "../content/SafeMarkdown";
import { ArgumentFields, requiredFilled, type ArgumentField } from "./ArgumentFields";
import { DetailHeader } from "./DetailHeader";
import { ErrorNote } from "./ErrorNote";
import "./explorer.css";

interface Props {
  server: string;
  prompt: Prompt;
  values: Record<string, string>;
  onValues(v: Record<string, string>): void;
  complete(arg: string, value: string): Promise<string[]>;
  onGet(): void;
  result?: GetPromptResult | null;
  error?: string | null;
  onOpenLink?(url: string): void;
  onReadResource?(link: ResourceLink): void;
}

/** A prompt: its arguments (with completions), then the messages the server makes of them. */
export function PromptDetail(props: Props) {
  const t = useT();
  const { server, prompt, values, onValues, complete, onGet, result, error, onOpenLink } = props;
  const headingId = useId();
  const fields: ArgumentField[] = (prompt.arguments ?? []).map((arg) => ({
    name: arg.name,
    label: arg.title ?? arg.name,
    required: arg.required === true,
    ...(arg.description ? { description: arg.description } : {}),
  }));
  const ready = requiredFilled(fields, values);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) onGet();
  };
  return (
    <article className="explorer-item" aria-labelledby={headingId}>
      <DetailHeader kind="prompt" title={prompt.title ?? prompt.name} name={prompt.name} server={server} headingId={headingId} />
      {prompt.description && <SafeMarkdown text={prompt.description} onOpenLink={onOpenLink} />}
      <form className="detail-form" onSubmit={submit} aria-label={t("explorer.prompt.arguments")}>
        <ArgumentFields fields={fields} values={values} onValues={onValues} complete={complete} />
        <div className="detail-actions">
          <button type="submit" className="primary" disabled={!ready}>
            {t("explorer.prompt.get")}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {result && <PromptMessages result={result} onOpenLink={onOpenLink} onReadResource={props.onReadResource} />}
    </article>
  );
}

function PromptMessages({
  result,
  onOpenLink,
  onReadResource,
}: {
  result: GetPromptResult;
  onOpenLink: ((url: string) => void) | undefined;
  onReadResource: ((link: ResourceLink) => void) | undefined;
}) {
  const t = useT();
  const messages = Array.isArray(result.messages) ? result.messages : [];
  return (
    <section className="prompt-messages" aria-label={t("explorer.prompt.messages")}>
      {result.description && <p className="muted">{result.description}</p>}
      {messages.length === 0 && <p className="muted">{t("explorer.prompt.noMessages")}</p>}
      {messages.map((message, index) => (
        <article key={index} className={`prompt-message prompt-message-${roleClass(message)}`} aria-label={messageLabel(message)}>
          <h3 className="prompt-role">{roleName(message)}</h3>
          <ContentView blocks={[message.content]} onOpenLink={onOpenLink} onReadResource={onReadResource} />
        </article>
      ))}
    </section>
  );
}

/** The role, in the window's words; a role of the server's own, as it says it. */
function roleName(message: PromptMessage): string {
  if (message.role === "user") return translate("explorer.prompt.user");
  if (message.role === "assistant") return translate("explorer.prompt.assistant");
  return String(message.role);
}

function messageLabel(message: PromptMessage): string {
  if (message.role === "user") return translate("explorer.prompt.userMessage");
  if (message.role === "assistant") return translate("explorer.prompt.assistantMessage");
  return translate("explorer.prompt.otherMessage", { role: String(message.role) });
}

function roleClass(message: PromptMessage): string {
  return message.role === "assistant" ? "assistant" : "user";
}

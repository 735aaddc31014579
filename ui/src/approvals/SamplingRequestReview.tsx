import type { CreateMessageRequestParams, SamplingMessage } from "../mcp/schema";
import { LabelledField as Field, errorAria } from "../forms/LabelledField";
import { t as translate, useT, type MessageId } from "../i18n";
import { SamplingBlock, blocksOf, withText } from "./SamplingContent";

/** The settings of the request the person may change, as typed. */
export interface SamplingSettings {
  systemPrompt: string;
  maxTokens: string;
  temperature: string;
  /** One per line. */
  stopSequences: string;
}

export function settingsOf(params: CreateMessageRequestParams): SamplingSettings {
  return {
    systemPrompt: params.systemPrompt ?? "",
    maxTokens: String(params.maxTokens),
    temperature: params.temperature === undefined ? "" : String(params.temperature),
    stopSequences: (params.stopSequences ?? []).join("\n"),
  };
}

/** Messages for the settings that do not read as numbers, in the window's language (call it while rendering). */
export function settingsErrors(settings: SamplingSettings): Partial<Record<keyof SamplingSettings, string>> {
  const errors: Partial<Record<keyof SamplingSettings, string>> = {};
  const max = Number(settings.maxTokens);
  if (!/^\s*\d+\s*$/.test(settings.maxTokens) || max < 1) errors.maxTokens = translate("approvals.request.maxTokensWrong");
  if (settings.temperature.trim() !== "" && !Number.isFinite(Number(settings.temperature))) {
    errors.temperature = translate("approvals.request.temperatureWrong");
  }
  return errors;
}

const CONTEXT: Record<string, MessageId> = {
  none: "approvals.request.none",
  thisServer: "approvals.request.context.thisServer",
  allServers: "approvals.request.context.allServers",
};

interface Props {
  idPrefix: string;
  params: CreateMessageRequestParams;
  messages: SamplingMessage[];
  onMessages(messages: SamplingMessage[]): void;
  settings: SamplingSettings;
  onSettings(settings: SamplingSettings): void;
  errors: Partial<Record<keyof SamplingSettings, string>>;
}

/** Step 1: what the server asks a model, with the parts a person may sensibly change. */
export function SamplingRequestReview({ idPrefix, params, messages, onMessages, settings, onSettings, errors }: Props) {
  const t = useT();
  const set = (key: keyof SamplingSettings) => (e: { target: { value: string } }) =>
    onSettings({ ...settings, [key]: e.target.value });
  const preferences = params.modelPreferences;
  const hints = (preferences?.hints ?? []).flatMap((h) => (h.name ? [h.name] : []));
  const priorities = (
    [
      ["approvals.request.cost", preferences?.costPriority],
      ["approvals.request.speed", preferences?.speedPriority],
      ["approvals.request.intelligence", preferences?.intelligencePriority],
    ] as const
  ).flatMap(([id, value]) => (value === undefined ? [] : [t(id, { value: String(value) })]));
  const context = params.includeContext ?? "none";

  return (
    <>
      <ol className="sampling-messages" aria-label={t("approvals.request.messages")}>
        {messages.map((message, i) => {
          const blocks = blocksOf(message);
          return (
            <li key={i} className="sampling-message">
              {/* A text block's label names the message; other blocks need this caption. */}
              {blocks[0]?.type !== "text" && (
                <span className="sampling-role">{t("approvals.request.message", { number: i + 1, role: message.role })}</span>
              )}
              {blocks.map((block, j) => (
                <SamplingBlock
                  key={j}
                  id={`${idPrefix}-message-${i}-${j}`}
                  block={block}
                  label={
                    blocks.length > 1
                      ? t("approvals.request.messagePart", { number: i + 1, role: message.role, part: j + 1 })
                      : t("approvals.request.message", { number: i + 1, role: message.role })
                  }
                  onText={(text) => onMessages(withText(messages, i, j, text))}
                />
              ))}
            </li>
          );
        })}
      </ol>
      <Field id={`${idPrefix}-system`} label={t("approvals.request.systemPrompt")}>
        <textarea
          id={`${idPrefix}-system`}
          className="form-input"
          rows={3}
          value={settings.systemPrompt}
          onChange={set("systemPrompt")}
        />
      </Field>
      <div className="sampling-settings">
        <Field id={`${idPrefix}-max`} label={t("approvals.request.maxTokens")} error={errors.maxTokens}>
          <input
            id={`${idPrefix}-max`}
            className="form-input"
            inputMode="numeric"
            value={settings.maxTokens}
            onChange={set("maxTokens")}
            {...errorAria(`${idPrefix}-max`, errors.maxTokens)}
          />
        </Field>
        <Field id={`${idPrefix}-temperature`} label={t("approvals.request.temperature")} error={errors.temperature}>
          <input
            id={`${idPrefix}-temperature`}
            className="form-input"
            inputMode="decimal"
            value={settings.temperature}
            onChange={set("temperature")}
            {...errorAria(`${idPrefix}-temperature`, errors.temperature)}
          />
        </Field>
        <Field id={`${idPrefix}-stop`} label={t("approvals.request.stopSequences")}>
          <textarea
            id={`${idPrefix}-stop`}
            className="form-input"
            rows={2}
            value={settings.stopSequences}
            onChange={set("stopSequences")}
          />
        </Field>
      </div>
      <dl className="facts">
        <dt>{t("approvals.request.modelHints")}</dt>
        <dd>{hints.length > 0 ? hints.join(t("approvals.list.separator")) : t("approvals.request.none")}</dd>
        <dt>{t("approvals.request.priorities")}</dt>
        <dd>{priorities.length > 0 ? priorities.join(" · ") : t("approvals.request.none")}</dd>
        <dt>{t("approvals.request.context")}</dt>
        <dd>{Object.hasOwn(CONTEXT, context) ? t(CONTEXT[context] as MessageId) : context}</dd>
        {params.tools && params.tools.length > 0 && (
          <>
            <dt>{t("approvals.request.toolsOffered")}</dt>
            <dd>
              <ul aria-label={t("approvals.request.toolsOffered")}>
                {params.tools.map((tool) => (
                  <li key={tool.name}>
                    <code>{tool.name}</code>
                    {tool.description ? ` — ${tool.description}` : ""}
                  </li>
                ))}
              </ul>
              {params.toolChoice?.mode && (
                <span className="muted">{t("approvals.request.toolChoice", { mode: params.toolChoice.mode })} </span>
              )}
              <span className="muted">{t("approvals.request.textOnly")}</span>
            </dd>
          </>
        )}
      </dl>
    </>
  );
}

import type { CreateMessageRequestParams, SamplingMessage } from "../mcp/schema";
import { LabelledField as Field, errorAria } from "../forms/LabelledField";
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

/** Messages for the settings that do not read as numbers. */
export function settingsErrors(settings: SamplingSettings): Partial<Record<keyof SamplingSettings, string>> {
  const errors: Partial<Record<keyof SamplingSettings, string>> = {};
  const max = Number(settings.maxTokens);
  if (!/^\s*\d+\s*$/.test(settings.maxTokens) || max < 1) errors.maxTokens = "Enter a whole number above 0";
  if (settings.temperature.trim() !== "" && !Number.isFinite(Number(settings.temperature))) {
    errors.temperature = "Enter a number, such as 0.7";
  }
  return errors;
}

const CONTEXT: Record<string, string> = {
  none: "none",
  thisServer: "from this server (not added: no context is shared by itself)",
  allServers: "from every server (not added: no context is shared by itself)",
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
  const set = (key: keyof SamplingSettings) => (e: { target: { value: string } }) =>
    onSettings({ ...settings, [key]: e.target.value });
  const preferences = params.modelPreferences;
  const hints = (preferences?.hints ?? []).flatMap((h) => (h.name ? [h.name] : []));
  const priorities = (
    [
      ["Cost", preferences?.costPriority],
      ["Speed", preferences?.speedPriority],
      ["Intelligence", preferences?.intelligencePriority],
    ] as const
  ).flatMap(([name, value]) => (value === undefined ? [] : [`${name} ${value}`]));

  return (
    <>
      <ol className="sampling-messages" aria-label="Messages">
        {messages.map((message, i) => {
          const blocks = blocksOf(message);
          return (
            <li key={i} className="sampling-message">
              {/* A text block's label names the message; other blocks need this caption. */}
              {blocks[0]?.type !== "text" && (
                <span className="sampling-role">
                  Message {i + 1} ({message.role})
                </span>
              )}
              {blocks.map((block, j) => (
                <SamplingBlock
                  key={j}
                  id={`${idPrefix}-message-${i}-${j}`}
                  block={block}
                  label={`Message ${i + 1} (${message.role})${blocks.length > 1 ? `, part ${j + 1}` : ""}`}
                  onText={(text) => onMessages(withText(messages, i, j, text))}
                />
              ))}
            </li>
          );
        })}
      </ol>
      <Field id={`${idPrefix}-system`} label="System prompt">
        <textarea
          id={`${idPrefix}-system`}
          className="form-input"
          rows={3}
          value={settings.systemPrompt}
          onChange={set("systemPrompt")}
        />
      </Field>
      <div className="sampling-settings">
        <Field id={`${idPrefix}-max`} label="Max tokens" error={errors.maxTokens}>
          <input
            id={`${idPrefix}-max`}
            className="form-input"
            inputMode="numeric"
            value={settings.maxTokens}
            onChange={set("maxTokens")}
            {...errorAria(`${idPrefix}-max`, errors.maxTokens)}
          />
        </Field>
        <Field id={`${idPrefix}-temperature`} label="Temperature" error={errors.temperature}>
          <input
            id={`${idPrefix}-temperature`}
            className="form-input"
            inputMode="decimal"
            value={settings.temperature}
            onChange={set("temperature")}
            {...errorAria(`${idPrefix}-temperature`, errors.temperature)}
          />
        </Field>
        <Field id={`${idPrefix}-stop`} label="Stop sequences (one per line)">
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
        <dt>Model hints</dt>
        <dd>{hints.length > 0 ? hints.join(", ") : "none"}</dd>
        <dt>Priorities</dt>
        <dd>{priorities.length > 0 ? priorities.join(" · ") : "none"}</dd>
        <dt>Context asked for</dt>
        <dd>{CONTEXT[params.includeContext ?? "none"] ?? params.includeContext}</dd>
        {params.tools && params.tools.length > 0 && (
          <>
            <dt>Tools offered</dt>
            <dd>
              <ul aria-label="Tools offered">
                {params.tools.map((tool) => (
                  <li key={tool.name}>
                    <code>{tool.name}</code>
                    {tool.description ? ` — ${tool.description}` : ""}
                  </li>
                ))}
              </ul>
              {params.toolChoice?.mode && <span className="muted">Tool choice: {params.toolChoice.mode}. </span>}
              <span className="muted">A reply written here is text: it calls no tool.</span>
            </dd>
          </>
        )}
      </dl>
    </>
  );
}

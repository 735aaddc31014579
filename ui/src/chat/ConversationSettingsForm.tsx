import { useId, useState } from "react";
import type { ConversationSettings, Effort } from "../bindings";

const EFFORTS: { value: Effort; label: string }[] = [
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
];

export interface ConversationSettingsFormProps {
  settings: ConversationSettings;
  onSave(settings: ConversationSettings): void;
  onCancel(): void;
}

/** A whole number of at least 1 as typed, null when left empty, or what is wrong with it. */
function count(text: string): number | null | string {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1 ? n : "a whole number of at least 1, or nothing for the default";
}

/**
 * How one conversation asks its model: its own system prompt, the longest answer, the most
 * rounds of tool calls in a run and how hard a reasoning model thinks (empty: the defaults). Its provider and model are the ones it
 * was last sent with, chosen beside the message.
 */
export function ConversationSettingsForm({ settings, onSave, onCancel }: ConversationSettingsFormProps) {
  const id = useId();
  const [system, setSystem] = useState(settings.system ?? "");
  const [maxTokens, setMaxTokens] = useState(settings.maxTokens?.toString() ?? "");
  const [maxRounds, setMaxRounds] = useState(settings.maxRounds?.toString() ?? "");
  const [effort, setEffort] = useState<Effort | null>(settings.effort ?? null);
  const tokens = count(maxTokens);
  const rounds = count(maxRounds);
  const wrong = typeof tokens === "string" || typeof rounds === "string";
  return (
    <form
      className="chat-settings"
      aria-label="Conversation settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (typeof tokens === "string" || typeof rounds === "string") return;
        onSave({ ...settings, system: system.trim() === "" ? null : system, maxTokens: tokens, maxRounds: rounds, effort });
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
      }}
    >
      <label htmlFor={`${id}-system`}>System prompt</label>
      <textarea
        id={`${id}-system`}
        rows={3}
        placeholder="What the model should always keep in mind in this conversation"
        value={system}
        onChange={(e) => setSystem(e.target.value)}
      />
      <div className="chat-settings-numbers">
        <label>
          Longest answer (tokens)
          <input type="number" min={1} step={1} placeholder="4096" value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} />
        </label>
        <label>
          Most rounds of tool calls
          <input type="number" min={1} step={1} placeholder="16" value={maxRounds} onChange={(e) => setMaxRounds(e.target.value)} />
        </label>
        <label>
          Reasoning effort
          <select value={effort ?? ""} onChange={(e) => setEffort(e.target.value === "" ? null : (e.target.value as Effort))}>
            <option value="">The model's default</option>
            {EFFORTS.map((e) => (
              <option key={e.value} value={e.value}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {typeof tokens === "string" && <p className="error">Longest answer: {tokens}.</p>}
      {typeof rounds === "string" && <p className="error">Most rounds: {rounds}.</p>}
      <div className="chat-turn-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={wrong}>
          Save settings
        </button>
      </div>
    </form>
  );
}

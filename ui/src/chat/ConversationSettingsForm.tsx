import { useId, useState } from "react";
import type { ConversationSettings, Effort } from "../bindings";
import { useT, type MessageId } from "../i18n";

const EFFORTS: { value: Effort; label: MessageId }[] = [
  { value: "low", label: "chat.settings.effortLow" },
  { value: "medium", label: "chat.settings.effortMedium" },
  { value: "high", label: "chat.settings.effortHigh" },
];

export interface ConversationSettingsFormProps {
  settings: ConversationSettings;
  onSave(settings: ConversationSettings): void;
  onCancel(): void;
}

/** What is typed when it is not a whole number of at least 1, nor empty. */
const WRONG = "wrong";

/** A whole number of at least 1 as typed, null when left empty, or [`WRONG`]. */
function count(text: string): number | null | typeof WRONG {
  const typed = text.trim();
  if (typed === "") return null;
  const n = Number(typed);
  return Number.isInteger(n) && n >= 1 ? n : WRONG;
}

/**
 * How one conversation asks its model: its own system prompt, the longest answer, the most
 * rounds of tool calls in a run and how hard a reasoning model thinks (empty: the defaults). Its provider and model are the ones it
 * was last sent with, chosen beside the message.
 */
export function ConversationSettingsForm({ settings, onSave, onCancel }: ConversationSettingsFormProps) {
  const t = useT();
  const id = useId();
  const [system, setSystem] = useState(settings.system ?? "");
  const [maxTokens, setMaxTokens] = useState(settings.maxTokens?.toString() ?? "");
  const [maxRounds, setMaxRounds] = useState(settings.maxRounds?.toString() ?? "");
  const [effort, setEffort] = useState<Effort | null>(settings.effort ?? null);
  const tokens = count(maxTokens);
  const rounds = count(maxRounds);
  const wrong = tokens === WRONG || rounds === WRONG;
  return (
    <form
      className="chat-settings"
      aria-label={t("chat.settings.label")}
      onSubmit={(e) => {
        e.preventDefault();
        if (tokens === WRONG || rounds === WRONG) return;
        onSave({ ...settings, system: system.trim() === "" ? null : system, maxTokens: tokens, maxRounds: rounds, effort });
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
      }}
    >
      <label htmlFor={`${id}-system`}>{t("chat.settings.system")}</label>
      <textarea
        id={`${id}-system`}
        rows={3}
        placeholder={t("chat.settings.systemPlaceholder")}
        value={system}
        onChange={(e) => setSystem(e.target.value)}
      />
      <div className="chat-settings-numbers">
        <label>
          {t("chat.settings.longest")}
          <input type="number" min={1} step={1} placeholder="4096" value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} />
        </label>
        <label>
          {t("chat.settings.rounds")}
          <input type="number" min={1} step={1} placeholder="16" value={maxRounds} onChange={(e) => setMaxRounds(e.target.value)} />
        </label>
        <label>
          {t("chat.settings.effort")}
          <select value={effort ?? ""} onChange={(e) => setEffort(e.target.value === "" ? null : (e.target.value as Effort))}>
            <option value="">{t("chat.settings.effortDefault")}</option>
            {EFFORTS.map((e) => (
              <option key={e.value} value={e.value}>
                {t(e.label)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {tokens === WRONG && <p className="error">{t("chat.settings.longestWrong")}</p>}
      {rounds === WRONG && <p className="error">{t("chat.settings.roundsWrong")}</p>}
      <div className="chat-turn-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t("chat.settings.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={wrong}>
          {t("chat.settings.save")}
        </button>
      </div>
    </form>
  );
}

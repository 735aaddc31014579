import { useState } from "react";
import type { Profile } from "../bindings";
import { useT, type MessageId } from "../i18n";

export interface ModelProfilesProps {
  provider: string;
  /** The models the provider is known to offer: its default and those typed for it. */
  models: string[];
  /** What the person said of each model, or its refusals taught. */
  profiles: Partial<Record<string, Profile>>;
  /** What each model's name tells of it. */
  known: Partial<Record<string, Profile>>;
  /** Keeps what a model takes (null: as its name tells). */
  onSave(model: string, profile: Profile | null): void;
}

type Yes = "vision" | "temperature" | "stop" | "tools";

/** The questions of yes or no, each with the message that names its column (read when shown). */
const YES_NO: ReadonlyArray<{ key: Yes; label: MessageId }> = [
  { key: "vision", label: "models.profiles.vision" },
  { key: "temperature", label: "models.profiles.temperature" },
  { key: "stop", label: "models.profiles.stop" },
  { key: "tools", label: "models.profiles.tools" },
];

/** A number of tokens as typed: a whole number of 1 or more, null when empty, or what is wrong. */
function tokens(text: string): number | null | "wrong" {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1 ? n : "wrong";
}

function said(value: boolean | null | undefined): string {
  return value == null ? "" : value ? "yes" : "no";
}

/**
 * What each model takes: its context, its longest answer, whether it reads images, takes a
 * temperature or stop sequences, calls tools. What its name tells is shown; what the person
 * says goes over it, and so does what a provider's refusal taught (kept here, to be corrected).
 */
export function ModelProfiles({
  provider,
  models,
  profiles,
  known,
  onSave,
}: ModelProfilesProps) {
  const t = useT();
  const listed = [...new Set([...models, ...Object.keys(profiles)])];
  return (
    <details className="model-prices model-profiles">
      <summary>{t("models.profiles.title", { provider })}</summary>
      {listed.length === 0 ? (
        <p className="muted">{t("models.profiles.empty")}</p>
      ) : (
        <table aria-label={t("models.profiles.title", { provider })}>
          <thead>
            <tr>
              <th scope="col">{t("models.table.model")}</th>
              <th scope="col">{t("models.profiles.context")}</th>
              <th scope="col">{t("models.profiles.longest")}</th>
              {YES_NO.map((q) => (
                <th scope="col" key={q.key}>
                  {t(q.label)}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{t("models.table.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {listed.map((model) => (
              <ProfileRow
                key={model}
                model={model}
                profile={profiles[model] ?? {}}
                known={known[model] ?? {}}
                onSave={(profile) => onSave(model, profile)}
              />
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

interface ProfileRowProps {
  model: string;
  profile: Profile;
  known: Profile;
  onSave(profile: Profile | null): void;
}

function ProfileRow({ model, profile, known, onSave }: ProfileRowProps) {
  const t = useT();
  const [context, setContext] = useState(
    profile.contextTokens?.toString() ?? "",
  );
  const [output, setOutput] = useState(profile.maxOutput?.toString() ?? "");
  const [answers, setAnswers] = useState<Record<Yes, string>>({
    vision: said(profile.vision),
    temperature: said(profile.temperature),
    stop: said(profile.stop),
    tools: said(profile.tools),
  });
  const [contextTokens, maxOutput] = [tokens(context), tokens(output)];
  const wrong = contextTokens === "wrong" || maxOutput === "wrong";
  const original =
    context === (profile.contextTokens?.toString() ?? "") &&
    output === (profile.maxOutput?.toString() ?? "") &&
    YES_NO.every((q) => answers[q.key] === said(profile[q.key]));
  const save = () => {
    if (wrong) return;
    const next: Profile = {
      ...(profile.reasons == null ? {} : { reasons: profile.reasons }),
    };
    if (contextTokens !== null) next.contextTokens = contextTokens;
    if (maxOutput !== null) next.maxOutput = maxOutput;
    for (const q of YES_NO) {
      if (answers[q.key] !== "") next[q.key] = answers[q.key] === "yes";
    }
    onSave(Object.keys(next).length === 0 ? null : next);
  };
  const byName = (value: number | boolean | null | undefined) =>
    value == null
      ? t("models.profiles.notKnown")
      : typeof value === "number"
        ? t("models.profiles.tokensByName", { tokens: value })
        : value
          ? t("models.profiles.yesByName")
          : t("models.profiles.noByName");
  return (
    <tr>
      <th scope="row">
        <code>{model}</code>
      </th>
      <td>
        <input
          type="number"
          min={1}
          step={1}
          aria-label={t("models.profiles.contextOf", { model })}
          placeholder={byName(known.contextTokens)}
          value={context}
          onChange={(e) => setContext(e.target.value)}
        />
      </td>
      <td>
        <input
          type="number"
          min={1}
          step={1}
          aria-label={t("models.profiles.longestOf", { model })}
          placeholder={byName(known.maxOutput)}
          value={output}
          onChange={(e) => setOutput(e.target.value)}
        />
      </td>
      {YES_NO.map((q) => (
        <td key={q.key}>
          <select
            aria-label={t("models.profiles.questionOf", { question: t(q.label), model })}
            value={answers[q.key]}
            onChange={(e) =>
              setAnswers({ ...answers, [q.key]: e.target.value })
            }
          >
            <option value="">
              {known[q.key] == null
                ? t("models.profiles.optionNotKnown")
                : known[q.key]
                  ? t("models.profiles.optionYesByName")
                  : t("models.profiles.optionNoByName")}
            </option>
            <option value="yes">{t("models.profiles.yes")}</option>
            <option value="no">{t("models.profiles.no")}</option>
          </select>
        </td>
      ))}
      <td>
        <button
          type="button"
          className="small"
          aria-label={t("models.profiles.saveOf", { model })}
          disabled={wrong || original}
          onClick={save}
        >
          {t("models.table.save")}
        </button>
        {wrong && <span className="error"> {t("models.profiles.wrong")}</span>}
      </td>
    </tr>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { ModelChoice_Serialize } from "../bindings";
import { errorMessage } from "../errors";
import { useT } from "../i18n";
import { FieldError, describedBy } from "../servers/FieldError";
import { PRESETS, PROTOCOLS, formOf, keyStateText, validateDraft, type ProviderDraft } from "./providerFormModel";
import "../servers/servers.css";
import "./models.css";

export type ProviderFormValue = ReturnType<typeof formOf>;

export interface ProviderFormViewProps {
  initial: ProviderDraft;
  /** The provider's name as saved; null when adding one. */
  original: string | null;
  existingNames: string[];
  onSave(form: ProviderFormValue): void;
  onCancel(): void;
  /** Asks the provider the form describes for its models (with the key typed, or the stored one). */
  onFetchModels(form: ProviderFormValue): Promise<ModelChoice_Serialize[]>;
  busy?: boolean;
  error?: string | null;
}

/** Adding or editing one model provider: where it is, how it speaks, its key (kept in the keyring) and default model. */
export function ProviderFormView({ initial, original, existingNames, onSave, onCancel, onFetchModels, busy = false, error = null }: ProviderFormViewProps) {
  const t = useT();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState(initial);
  const [attempts, setAttempts] = useState(0);
  const [fetched, setFetched] = useState<ModelChoice_Serialize[] | null>(null);
  const [fetching, setFetching] = useState(false);
  const [fetchError, setFetchError] = useState<string | null>(null);
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  const allErrors = validateDraft(draft, existingNames, original);
  const errors = attempts > 0 ? allErrors : {};
  const problems = Object.keys(errors).length;
  const set = (change: Partial<ProviderDraft>) => setDraft((d) => ({ ...d, ...change }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (Object.keys(allErrors).length === 0) onSave(formOf(draft));
    else setAttempts((n) => n + 1);
  };

  const fetchModels = () => {
    if (allErrors.baseUrl) {
      setAttempts((n) => n + 1);
      return;
    }
    setFetching(true);
    setFetchError(null);
    onFetchModels(formOf(draft))
      .then(
        (models) => setFetched(models),
        (err: unknown) => {
          setFetched(null);
          setFetchError(errorMessage(err));
        },
      )
      .finally(() => setFetching(false));
  };

  const stored = draft.keyState === "stored" && !draft.removeKey;
  const keyHint =
    draft.removeKey
      ? t("models.form.keyHintRemoved")
      : draft.keyState === "stored"
        ? t("models.form.keyHintStored")
        : draft.keyState === "missing"
          ? t("models.form.keyHintMissing")
          : t("models.form.keyHint");
  const titleId = `${id}-title`;
  return (
    <form ref={formRef} className="server-form provider-form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h2 id={titleId}>{original === null ? t("models.form.addTitle") : t("models.form.editTitle", { name: original })}</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {problems > 0 && (
        <p className="error" role="alert">
          {t("models.form.problems", { count: problems })}
        </p>
      )}

      <div className="field" role="group" aria-label={t("models.form.presets")}>
        <span className="muted">{t("models.form.startFrom")}</span>{" "}
        {PRESETS.map((preset) => (
          <button
            key={preset.label}
            type="button"
            onClick={() => set({ protocol: preset.protocol, baseUrl: preset.baseUrl, ...(draft.name.trim() === "" ? { name: preset.name } : {}) })}
          >
            {preset.label}
          </button>
        ))}
      </div>

      <Text id={`${id}-name`} label={t("models.form.name")} value={draft.name} error={errors.name} onChange={(name) => set({ name })}
        hint={t("models.form.nameHint")} />

      <fieldset className="transport-choice">
        <legend>{t("models.form.protocol")}</legend>
        {PROTOCOLS.map((p) => (
          <label key={p.value} className="check">
            <input type="radio" name={`${id}-protocol`} value={p.value} checked={draft.protocol === p.value}
              onChange={() => set({ protocol: p.value })} />
            {t(p.label)}
          </label>
        ))}
      </fieldset>

      <Text id={`${id}-url`} label={t("models.form.baseUrl")} value={draft.baseUrl} error={errors.baseUrl} onChange={(baseUrl) => set({ baseUrl })} monospace
        hint={draft.protocol !== "anthropic" ? t("models.form.baseUrlHint") : t("models.form.baseUrlHintAnthropic")} />

      <div className="field">
        <label htmlFor={`${id}-key`}>{t("models.form.apiKey")}</label>
        {draft.keyState !== "none" && (
          <p className={`key-state key-${draft.removeKey ? "removed" : draft.keyState}`} data-testid="key-state">
            {draft.removeKey ? t("models.form.keyToRemove") : keyStateText(draft.keyState)}
          </p>
        )}
        <input id={`${id}-key`} type="password" className="mono" value={draft.keyText} autoComplete="off" spellCheck={false}
          placeholder={stored ? t("models.form.keyStoredPlaceholder") : ""} aria-describedby={`${id}-key-hint`}
          onChange={(e) => set({ keyText: e.target.value, removeKey: false })} />
        <p id={`${id}-key-hint`} className="hint">
          {keyHint}
        </p>
        {draft.keyState !== "none" && (
          <button type="button" onClick={() => set({ removeKey: !draft.removeKey, keyText: "" })}>
            {draft.removeKey ? t("models.form.keepKey") : t("models.form.removeKey")}
          </button>
        )}
      </div>

      <div className="field">
        <label htmlFor={`${id}-models`}>{t("models.form.models")}</label>
        <textarea id={`${id}-models`} className="mono" rows={3} value={draft.modelsText} spellCheck={false}
          aria-describedby={`${id}-models-hint`} onChange={(e) => set({ modelsText: e.target.value })} />
        <p id={`${id}-models-hint`} className="hint">
          {t("models.form.modelsHint")}
        </p>
      </div>

      <div className="field">
        <label htmlFor={`${id}-default`}>{t("models.form.defaultModel")}</label>
        <input id={`${id}-default`} type="text" className="mono" value={draft.defaultModel} spellCheck={false} autoComplete="off"
          onChange={(e) => set({ defaultModel: e.target.value })} />
        <div className="fetch-models">
          <button type="button" onClick={fetchModels} disabled={fetching}>
            {fetching ? t("models.form.fetching") : t("models.form.fetch")}
          </button>
          {fetched !== null &&
            (fetched.length === 0 ? (
              <span className="muted">{t("models.form.noneListed")}</span>
            ) : (
              <select aria-label={t("models.form.fetched")} value={fetched.some((m) => m.id === draft.defaultModel) ? draft.defaultModel : ""}
                onChange={(e) => e.target.value !== "" && set({ defaultModel: e.target.value })}>
                <option value="">{t("models.form.pick", { count: fetched.length })}</option>
                {fetched.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.displayName ? t("models.form.fetchedModel", { name: m.displayName, id: m.id }) : m.id}
                  </option>
                ))}
              </select>
            ))}
        </div>
        {fetchError && (
          <p className="error" role="alert">
            {t("models.form.fetchFailed", { message: fetchError })}
          </p>
        )}
      </div>

      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t("models.form.saving") : original === null ? t("models.form.add") : t("models.form.saveChanges")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("models.form.cancel")}
        </button>
      </div>
    </form>
  );
}

interface TextProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  hint: string;
  monospace?: boolean;
}

function Text({ id, label, value, onChange, error, hint, monospace = false }: TextProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" className={monospace ? "mono" : undefined} value={value} spellCheck={false} autoComplete="off"
        aria-invalid={error ? true : undefined} aria-describedby={describedBy(`${id}-hint`, error && `${id}-error`)}
        onChange={(e) => onChange(e.target.value)} />
      <p id={`${id}-hint`} className="hint">
        {hint}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

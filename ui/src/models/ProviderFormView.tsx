import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { ModelChoice_Serialize } from "../bindings";
import { errorMessage } from "../errors";
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
      ? "The stored key is deleted from the keyring on saving."
      : draft.keyState === "stored"
        ? "Stored in keyring; type a new key to replace it."
        : draft.keyState === "missing"
          ? "The keyring no longer holds this provider's key: enter it again."
          : "Kept in the OS keyring, never in the configuration file. Local servers (Ollama) need none.";
  const titleId = `${id}-title`;
  return (
    <form ref={formRef} className="server-form provider-form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h2 id={titleId}>{original === null ? "Add a provider" : `Edit ${original}`}</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {problems > 0 && (
        <p className="error" role="alert">
          {problems === 1 ? "One thing to fix before saving." : `${problems} things to fix before saving.`}
        </p>
      )}

      <div className="field" role="group" aria-label="Presets">
        <span className="muted">Start from</span>{" "}
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

      <Text id={`${id}-name`} label="Provider name" value={draft.name} error={errors.name} onChange={(name) => set({ name })}
        hint="Letters, digits, '-', '_' and '.'." />

      <fieldset className="transport-choice">
        <legend>Protocol</legend>
        {PROTOCOLS.map((p) => (
          <label key={p.value} className="check">
            <input type="radio" name={`${id}-protocol`} value={p.value} checked={draft.protocol === p.value}
              onChange={() => set({ protocol: p.value })} />
            {p.label}
          </label>
        ))}
      </fieldset>

      <Text id={`${id}-url`} label="Base URL" value={draft.baseUrl} error={errors.baseUrl} onChange={(baseUrl) => set({ baseUrl })} monospace
        hint={draft.protocol !== "anthropic" ? "Usually ends in /v1, e.g. http://localhost:11434/v1." : "The API's host, e.g. https://api.anthropic.com."} />

      <div className="field">
        <label htmlFor={`${id}-key`}>API key</label>
        {draft.keyState !== "none" && (
          <p className={`key-state key-${draft.removeKey ? "removed" : draft.keyState}`} data-testid="key-state">
            {draft.removeKey ? "Key to be removed" : keyStateText(draft.keyState)}
          </p>
        )}
        <input id={`${id}-key`} type="password" className="mono" value={draft.keyText} autoComplete="off" spellCheck={false}
          placeholder={stored ? "•••••• (stored)" : ""} aria-describedby={`${id}-key-hint`}
          onChange={(e) => set({ keyText: e.target.value, removeKey: false })} />
        <p id={`${id}-key-hint`} className="hint">
          {keyHint}
        </p>
        {draft.keyState !== "none" && (
          <button type="button" onClick={() => set({ removeKey: !draft.removeKey, keyText: "" })}>
            {draft.removeKey ? "Keep the stored key" : "Remove key"}
          </button>
        )}
      </div>

      <div className="field">
        <label htmlFor={`${id}-models`}>Models</label>
        <textarea id={`${id}-models`} className="mono" rows={3} value={draft.modelsText} spellCheck={false}
          aria-describedby={`${id}-models-hint`} onChange={(e) => set({ modelsText: e.target.value })} />
        <p id={`${id}-models-hint`} className="hint">
          Optional: model ids to offer, one a line, for a provider that lists none.
        </p>
      </div>

      <div className="field">
        <label htmlFor={`${id}-default`}>Default model</label>
        <input id={`${id}-default`} type="text" className="mono" value={draft.defaultModel} spellCheck={false} autoComplete="off"
          onChange={(e) => set({ defaultModel: e.target.value })} />
        <div className="fetch-models">
          <button type="button" onClick={fetchModels} disabled={fetching}>
            {fetching ? "Fetching…" : "Fetch models"}
          </button>
          {fetched !== null &&
            (fetched.length === 0 ? (
              <span className="muted">The provider lists no model: type one.</span>
            ) : (
              <select aria-label="Fetched models" value={fetched.some((m) => m.id === draft.defaultModel) ? draft.defaultModel : ""}
                onChange={(e) => e.target.value !== "" && set({ defaultModel: e.target.value })}>
                <option value="">{`Pick one of ${fetched.length} models`}</option>
                {fetched.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.displayName ? `${m.displayName} (${m.id})` : m.id}
                  </option>
                ))}
              </select>
            ))}
        </div>
        {fetchError && (
          <p className="error" role="alert">
            Could not fetch the models: {fetchError}
          </p>
        )}
      </div>

      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Saving…" : original === null ? "Add provider" : "Save changes"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
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

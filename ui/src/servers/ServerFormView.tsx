import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { OAuthGrant, ServerForm_Serialize as ServerForm } from "../bindings";
import { normalizeServerForm, splitCommandLine, usesClientSecret, validateServerForm } from "./serverFormModel";
import { ArgsEditor } from "./ArgsEditor";
import { KeyValueRows } from "./KeyValueRows";
import { FieldError, describedBy } from "./FieldError";
import { t as translate, tx, useT, type MessageId } from "../i18n";
import "./servers.css";

export { emptyServerForm, validateServerForm, type ServerFormErrors } from "./serverFormModel";

export interface ServerFormViewProps {
  initial: ServerForm;
  existingNames: string[];
  mode: "add" | "edit";
  onSave(form: ServerForm): void;
  onCancel(): void;
  busy?: boolean;
  error?: string | null;
}

const HTTP_MODES: Array<{ value: ServerForm["httpMode"]; label: MessageId }> = [
  { value: "auto", label: "serverForm.httpMode.auto" },
  { value: "streamable_http", label: "serverForm.httpMode.streamableHttp" },
  { value: "legacy_sse", label: "serverForm.httpMode.legacySse" },
];

const ERAS: Array<{ value: ServerForm["protocolEra"]; label: MessageId }> = [
  { value: "auto", label: "serverForm.era.auto" },
  { value: "stateless", label: "serverForm.era.stateless" },
  { value: "session", label: "serverForm.era.session" },
];

const GRANTS: Array<{ value: OAuthGrant; label: MessageId }> = [
  { value: "signIn", label: "serverForm.grant.signIn" },
  { value: "clientCredentials", label: "serverForm.grant.clientCredentials" },
  { value: "workload", label: "serverForm.grant.workload" },
  { value: "enterprise", label: "serverForm.grant.enterprise" },
];

const CLIENT_ID_HINTS: Record<OAuthGrant, MessageId> = {
  signIn: "serverForm.clientId.hintSignIn",
  clientCredentials: "serverForm.clientId.hintClientCredentials",
  workload: "serverForm.clientId.hintWorkload",
  enterprise: "serverForm.clientId.hintEnterprise",
};

/** Adding or editing one server's settings; problems show beside their fields once a save was tried. */
export function ServerFormView({ initial, existingNames, mode, onSave, onCancel, busy = false, error = null }: ServerFormViewProps) {
  const t = useT();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState(initial);
  // The timeout as typed, so "" and half-typed text survive until saved.
  const [timeoutText, setTimeoutText] = useState(initial.requestTimeoutSecs === null ? "" : String(initial.requestTimeoutSecs));
  // Failed save attempts: errors show from the first one, and each moves focus to the first problem.
  const [attempts, setAttempts] = useState(0);
  const tried = attempts > 0;
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  const current: ServerForm = { ...form, requestTimeoutSecs: timeoutText.trim() === "" ? null : Number(timeoutText) };
  const allErrors = validateServerForm(current, existingNames, mode, initial.name);
  const errors = tried ? allErrors : {};
  const problems = Object.keys(errors).length;
  const set = (change: Partial<ServerForm>) => setForm((f) => ({ ...f, ...change }));
  const grant = form.oauthGrant;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (Object.keys(allErrors).length === 0) onSave(normalizeServerForm(current));
    else setAttempts((n) => n + 1);
  };

  const titleId = `${id}-title`;
  return (
    <form ref={formRef} className="server-form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h2 id={titleId}>{mode === "add" ? t("serverForm.form.addTitle") : t("serverForm.form.editTitle", { name: initial.name })}</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {problems > 0 && (
        <p className="error" role="alert">
          {t("serverForm.form.problems", { count: problems })}
        </p>
      )}

      <TextField id={`${id}-name`} label={t("serverForm.name.label")} value={form.name} error={errors.name} onChange={(name) => set({ name })}
        hint={t("serverForm.name.hint")} />
      <label className="check">
        <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        {tx("serverForm.enabled.label", { muted: (chunks) => <span className="muted">{chunks}</span> })}
      </label>

      <fieldset className="transport-choice">
        <legend>{t("serverForm.transport.legend")}</legend>
        {(["stdio", "http"] as const).map((transport) => (
          <label key={transport} className="check">
            <input type="radio" name={`${id}-transport`} value={transport} checked={form.transport === transport}
              onChange={() => set({ transport })} />
            {transport === "stdio" ? t("serverForm.transport.stdio") : t("serverForm.transport.http")}
          </label>
        ))}
      </fieldset>

      {form.transport === "stdio" ? (
        <>
          <TextField id={`${id}-command`} label={t("serverForm.command.label")} value={form.command} error={errors.command} onChange={(command) => set({ command })}
            hint={t("serverForm.command.hint")} monospace />
          <SplitOffer command={form.command} onSplit={(command, args) => set({ command, args: [...args, ...form.args] })} />
          <ArgsEditor args={form.args} onChange={(args) => set({ args })} errors={errors} />
          <TextField id={`${id}-cwd`} label={t("serverForm.cwd.label")} value={form.cwd} error={errors.cwd} onChange={(cwd) => set({ cwd })}
            hint={t("serverForm.cwd.hint")} monospace />
          <KeyValueRows kind="env" rows={form.env} onChange={(env) => set({ env })} errors={errors} />
          <div className="field">
            <label className="check">
              <input type="checkbox" checked={form.sandbox} aria-describedby={`${id}-sandbox-hint`}
                onChange={(e) => set({ sandbox: e.target.checked })} />
              {t("serverForm.sandbox.label")}
            </label>
            <p id={`${id}-sandbox-hint`} className="hint">
              {t("serverForm.sandbox.hint")}
            </p>
            {form.sandbox && (
              <label className="check nested">
                <input type="checkbox" checked={form.sandboxNetwork} onChange={(e) => set({ sandboxNetwork: e.target.checked })} />
                {t("serverForm.sandbox.network")}
              </label>
            )}
          </div>
        </>
      ) : (
        <>
          <TextField id={`${id}-url`} label={t("serverForm.url.label")} type="url" value={form.url} error={errors.url} onChange={(url) => set({ url })}
            hint={t("serverForm.url.hint")} monospace />
          <div className="field">
            <label htmlFor={`${id}-mode`}>{t("serverForm.httpMode.label")}</label>
            <select id={`${id}-mode`} value={form.httpMode} onChange={(e) => set({ httpMode: e.target.value as ServerForm["httpMode"] })}>
              {HTTP_MODES.map((m) => (
                <option key={m.value} value={m.value}>
                  {t(m.label)}
                </option>
              ))}
            </select>
          </div>
          <KeyValueRows kind="headers" rows={form.headers} onChange={(headers) => set({ headers })} errors={errors} />
          <fieldset className="authorization">
            <legend>{t("serverForm.auth.legend")}</legend>
            <div className="field">
              <label htmlFor={`${id}-grant`}>{t("serverForm.grant.label")}</label>
              <select id={`${id}-grant`} value={grant} onChange={(e) => set({ oauthGrant: e.target.value as OAuthGrant })}>
                {GRANTS.map((g) => (
                  <option key={g.value} value={g.value}>
                    {t(g.label)}
                  </option>
                ))}
              </select>
            </div>
            <TextField id={`${id}-client-id`} label={t("serverForm.clientId.label")} value={form.clientId} error={errors.clientId}
              onChange={(clientId) => set({ clientId })} monospace hint={t(CLIENT_ID_HINTS[grant])} />
            {usesClientSecret(grant) && (
              <TextField id={`${id}-client-secret`} label={t("serverForm.clientSecret.label")} type="password" value={form.clientSecret}
                error={errors.clientSecret} onChange={(clientSecret) => set({ clientSecret })}
                hint={keyringHint(form.clientSecretStored, grant === "enterprise")} />
            )}
            {grant === "clientCredentials" && (
              <>
                <TextField id={`${id}-private-key`} label={t("serverForm.privateKey.label")} multiline value={form.privateKey} error={errors.privateKey}
                  onChange={(privateKey) => set({ privateKey })} monospace
                  hint={keyringHint(form.privateKeyStored)} />
                <TextField id={`${id}-signing-algorithm`} label={t("serverForm.signingAlgorithm.label")} value={form.signingAlgorithm} placeholder="ES256"
                  error={errors.signingAlgorithm} onChange={(signingAlgorithm) => set({ signingAlgorithm })} monospace narrow
                  hint={t("serverForm.signingAlgorithm.hint")} />
              </>
            )}
            <TextField id={`${id}-client-issuer`} label={t("serverForm.issuer.label")} type="url" value={form.clientIssuer}
              error={errors.clientIssuer} onChange={(clientIssuer) => set({ clientIssuer })} monospace
              hint={grant === "signIn"
                ? t("serverForm.issuer.hintSignIn")
                : t("serverForm.issuer.hintRequired")} />
            {grant === "workload" && (
              <TextField id={`${id}-token-file`} label={t("serverForm.tokenFile.label")} value={form.tokenFile} error={errors.tokenFile}
                onChange={(tokenFile) => set({ tokenFile })} monospace
                hint={t("serverForm.tokenFile.hint")} />
            )}
            {grant === "enterprise" && (
              <>
                <TextField id={`${id}-idp-token-endpoint`} label={t("serverForm.idpTokenEndpoint.label")} type="url" value={form.idpTokenEndpoint}
                  error={errors.idpTokenEndpoint} onChange={(idpTokenEndpoint) => set({ idpTokenEndpoint })} monospace
                  hint={t("serverForm.idpTokenEndpoint.hint")} />
                <TextField id={`${id}-idp-client-id`} label={t("serverForm.idpClientId.label")} value={form.idpClientId}
                  error={errors.idpClientId} onChange={(idpClientId) => set({ idpClientId })} monospace hint={t("serverForm.idpClientId.hint")} />
                <TextField id={`${id}-id-token-file`} label={t("serverForm.idTokenFile.label")} value={form.idTokenFile} error={errors.idTokenFile}
                  onChange={(idTokenFile) => set({ idTokenFile })} monospace
                  hint={t("serverForm.idTokenFile.hint")} />
              </>
            )}
            <label className="check">
              <input type="checkbox" checked={form.dpop} onChange={(e) => set({ dpop: e.target.checked })} />
              {t("serverForm.dpop.label")}
            </label>
          </fieldset>
        </>
      )}

      <TextField id={`${id}-timeout`} label={t("serverForm.timeout.label")} numeric value={timeoutText} error={errors.requestTimeoutSecs}
        onChange={setTimeoutText} hint={t("serverForm.timeout.hint")} narrow />

      <div className="field">
        <label htmlFor={`${id}-era`}>{t("serverForm.era.label")}</label>
        <select id={`${id}-era`} value={form.protocolEra} aria-describedby={`${id}-era-hint`}
          onChange={(e) => set({ protocolEra: e.target.value as ServerForm["protocolEra"] })}>
          {ERAS.map((era) => (
            <option key={era.value} value={era.value}>
              {t(era.label)}
            </option>
          ))}
        </select>
        <p id={`${id}-era-hint`} className="hint">
          {t("serverForm.era.hint")}
        </p>
      </div>

      <div className="field">
        <label className="check">
          <input type="checkbox" checked={form.trusted} aria-describedby={`${id}-trust-hint`} onChange={(e) => set({ trusted: e.target.checked })} />
          {t("serverForm.trusted.label")}
        </label>
        <p id={`${id}-trust-hint`} className="hint">
          {t("serverForm.trusted.hint")}
        </p>
      </div>

      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t("serverForm.form.saving") : mode === "add" ? t("serverForm.form.add") : t("serverForm.form.saveChanges")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("serverForm.form.cancel")}
        </button>
      </div>
    </form>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  hint?: ReactNode;
  type?: "text" | "url" | "password";
  /** Several lines, as a key in PEM. */
  multiline?: boolean;
  placeholder?: string;
  /** Typed as text so a wrong entry is reported, not silently emptied by the browser. */
  numeric?: boolean;
  monospace?: boolean;
  narrow?: boolean;
}

/**
 * A command typed with its arguments ("npx -y some-server") would run a program of that
 * whole name: offers to move the arguments to their own rows, ahead of any already there.
 */
function SplitOffer({ command, onSplit }: { command: string; onSplit(command: string, args: string[]): void }) {
  const t = useT();
  const words = splitCommandLine(command);
  const [program, ...args] = words;
  if (program === undefined || args.length === 0) return null;
  const label = t("serverForm.split.offer", { program, count: args.length });
  return (
    <p className="split-offer">
      <span>{t("serverForm.split.looksLike")}</span>{" "}
      <button type="button" onClick={() => onSplit(program, args)}>
        {label}
      </button>
    </p>
  );
}

/** What a secret's field says about the keyring; `optional` when the field may stay empty. */
function keyringHint(stored: boolean, optional = false): string {
  if (optional) return stored ? translate("serverForm.secret.optionalStored") : translate("serverForm.secret.optionalKept");
  return stored ? translate("serverForm.secret.stored") : translate("serverForm.secret.kept");
}

function TextField(props: TextFieldProps) {
  const { id, label, value, onChange, error, hint, type = "text", numeric = false, monospace = false, narrow = false, multiline = false, placeholder } = props;
  const className = [monospace && "mono", narrow && "narrow"].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    className,
    value,
    placeholder,
    spellCheck: false,
    autoComplete: "off",
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(hint !== undefined && `${id}-hint`, error && `${id}-error`),
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={4} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} inputMode={numeric ? "numeric" : undefined} onChange={(e) => onChange(e.target.value)} />
      )}
      {hint !== undefined && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

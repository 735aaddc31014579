import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { OAuthGrant, ServerForm_Serialize as ServerForm } from "../bindings";
import { normalizeServerForm, splitCommandLine, usesClientSecret, validateServerForm } from "./serverFormModel";
import { ArgsEditor } from "./ArgsEditor";
import { KeyValueRows } from "./KeyValueRows";
import { FieldError, describedBy } from "./FieldError";
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

const HTTP_MODES: Array<{ value: ServerForm["httpMode"]; label: string }> = [
  { value: "auto", label: "Automatic: Streamable HTTP, else HTTP+SSE" },
  { value: "streamable_http", label: "Streamable HTTP only" },
  { value: "legacy_sse", label: "HTTP+SSE (legacy) only" },
];

const ERAS: Array<{ value: ServerForm["protocolEra"]; label: string }> = [
  { value: "auto", label: "Find out: ask server/discover, else initialize" },
  { value: "stateless", label: "2026-07-28 only (stateless)" },
  { value: "session", label: "Before 2026-07-28 only (initialize handshake)" },
];

const GRANTS: Array<{ value: OAuthGrant; label: string }> = [
  { value: "signIn", label: "You sign in in the browser" },
  { value: "clientCredentials", label: "Client credentials (no person)" },
  { value: "workload", label: "Workload identity (token file)" },
  { value: "enterprise", label: "Enterprise identity provider" },
];

const CLIENT_ID_HINTS: Record<OAuthGrant, string> = {
  signIn: "Optional: for signing in when the server's authorization server gave you a client; empty registers one itself.",
  clientCredentials: "The client the authorization server made for this app.",
  workload: "Optional: for a server that asks which client the workload's token is for.",
  enterprise: "This app's client at the server's authorization server.",
};

/** Adding or editing one server's settings; problems show beside their fields once a save was tried. */
export function ServerFormView({ initial, existingNames, mode, onSave, onCancel, busy = false, error = null }: ServerFormViewProps) {
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
      <h2 id={titleId}>{mode === "add" ? "Add a server" : `Edit ${initial.name}`}</h2>
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

      <TextField id={`${id}-name`} label="Server name" value={form.name} error={errors.name} onChange={(name) => set({ name })}
        hint="Letters, digits, '-', '_' and '.'; tools appear under this name." />
      <label className="check">
        <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        Enabled <span className="muted">(start it now and whenever Switchboard starts)</span>
      </label>

      <fieldset className="transport-choice">
        <legend>Transport</legend>
        {(["stdio", "http"] as const).map((transport) => (
          <label key={transport} className="check">
            <input type="radio" name={`${id}-transport`} value={transport} checked={form.transport === transport}
              onChange={() => set({ transport })} />
            {transport === "stdio" ? "Local command (stdio)" : "Remote server (HTTP)"}
          </label>
        ))}
      </fieldset>

      {form.transport === "stdio" ? (
        <>
          <TextField id={`${id}-command`} label="Command" value={form.command} error={errors.command} onChange={(command) => set({ command })}
            hint="The program alone, e.g. npx or /usr/local/bin/my-server; its arguments go below." monospace />
          <SplitOffer command={form.command} onSplit={(command, args) => set({ command, args: [...args, ...form.args] })} />
          <ArgsEditor args={form.args} onChange={(args) => set({ args })} errors={errors} />
          <TextField id={`${id}-cwd`} label="Working directory" value={form.cwd} error={errors.cwd} onChange={(cwd) => set({ cwd })}
            hint="Optional; an absolute path." monospace />
          <KeyValueRows kind="env" rows={form.env} onChange={(env) => set({ env })} errors={errors} />
          <div className="field">
            <label className="check">
              <input type="checkbox" checked={form.sandbox} aria-describedby={`${id}-sandbox-hint`}
                onChange={(e) => set({ sandbox: e.target.checked })} />
              Run in a sandbox
            </label>
            <p id={`${id}-sandbox-hint`} className="hint">
              It then sees only the system, its own program and the folders you share with it, with an empty home and
              only the variables above (bubblewrap builds it, or Landlock where bubblewrap cannot run). An npx or uvx
              package is fetched first, with the network for that step alone. Its calls are asked about as ever.
            </p>
            {form.sandbox && (
              <label className="check nested">
                <input type="checkbox" checked={form.sandboxNetwork} onChange={(e) => set({ sandboxNetwork: e.target.checked })} />
                Allow it the network
              </label>
            )}
          </div>
        </>
      ) : (
        <>
          <TextField id={`${id}-url`} label="URL" type="url" value={form.url} error={errors.url} onChange={(url) => set({ url })}
            hint="The server's MCP endpoint, http:// or https://." monospace />
          <div className="field">
            <label htmlFor={`${id}-mode`}>HTTP transport</label>
            <select id={`${id}-mode`} value={form.httpMode} onChange={(e) => set({ httpMode: e.target.value as ServerForm["httpMode"] })}>
              {HTTP_MODES.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
          <KeyValueRows kind="headers" rows={form.headers} onChange={(headers) => set({ headers })} errors={errors} />
          <fieldset className="authorization">
            <legend>Authorization</legend>
            <div className="field">
              <label htmlFor={`${id}-grant`}>How it signs in</label>
              <select id={`${id}-grant`} value={grant} onChange={(e) => set({ oauthGrant: e.target.value as OAuthGrant })}>
                {GRANTS.map((g) => (
                  <option key={g.value} value={g.value}>
                    {g.label}
                  </option>
                ))}
              </select>
            </div>
            <TextField id={`${id}-client-id`} label="Client ID" value={form.clientId} error={errors.clientId}
              onChange={(clientId) => set({ clientId })} monospace hint={CLIENT_ID_HINTS[grant]} />
            {usesClientSecret(grant) && (
              <TextField id={`${id}-client-secret`} label="Client secret" type="password" value={form.clientSecret}
                error={errors.clientSecret} onChange={(clientSecret) => set({ clientSecret })}
                hint={`${grant === "enterprise" ? "Optional. " : ""}${keyringHint(form.clientSecretStored)}`} />
            )}
            {grant === "clientCredentials" && (
              <>
                <TextField id={`${id}-private-key`} label="Private key (PEM)" multiline value={form.privateKey} error={errors.privateKey}
                  onChange={(privateKey) => set({ privateKey })} monospace
                  hint={keyringHint(form.privateKeyStored)} />
                <TextField id={`${id}-signing-algorithm`} label="Signing algorithm" value={form.signingAlgorithm} placeholder="ES256"
                  error={errors.signingAlgorithm} onChange={(signingAlgorithm) => set({ signingAlgorithm })} monospace narrow
                  hint="The key's JWS algorithm, as ES256, RS256 or EdDSA; empty for ES256." />
              </>
            )}
            <TextField id={`${id}-client-issuer`} label="Authorization server" type="url" value={form.clientIssuer}
              error={errors.clientIssuer} onChange={(clientIssuer) => set({ clientIssuer })} monospace
              hint={grant === "signIn"
                ? "Where the client was made (its issuer, as in https://auth.example.com): the secret is sent to it alone."
                : "Required: its issuer, as in https://auth.example.com. The credentials are sent to it alone."} />
            {grant === "workload" && (
              <TextField id={`${id}-token-file`} label="Token file" value={form.tokenFile} error={errors.tokenFile}
                onChange={(tokenFile) => set({ tokenFile })} monospace
                hint="Full path of the file holding the workload's token, as /var/run/secrets/tokens/mcp-token." />
            )}
            {grant === "enterprise" && (
              <>
                <TextField id={`${id}-idp-token-endpoint`} label="Identity provider token endpoint" type="url" value={form.idpTokenEndpoint}
                  error={errors.idpTokenEndpoint} onChange={(idpTokenEndpoint) => set({ idpTokenEndpoint })} monospace
                  hint="Where your identity provider gives tokens, as https://idp.example.com/oauth2/token." />
                <TextField id={`${id}-idp-client-id`} label="Client ID at the identity provider" value={form.idpClientId}
                  error={errors.idpClientId} onChange={(idpClientId) => set({ idpClientId })} monospace hint="This app's client there." />
                <TextField id={`${id}-id-token-file`} label="ID token file" value={form.idTokenFile} error={errors.idTokenFile}
                  onChange={(idTokenFile) => set({ idTokenFile })} monospace
                  hint="Full path of the file holding your ID token from the identity provider." />
              </>
            )}
            <label className="check">
              <input type="checkbox" checked={form.dpop} onChange={(e) => set({ dpop: e.target.checked })} />
              Bind tokens to this app's key (DPoP) where the server offers it
            </label>
          </fieldset>
        </>
      )}

      <TextField id={`${id}-timeout`} label="Request timeout (seconds)" numeric value={timeoutText} error={errors.requestTimeoutSecs}
        onChange={setTimeoutText} hint="How long to wait for each answer; empty uses the app's default." narrow />

      <div className="field">
        <label htmlFor={`${id}-era`}>Protocol era</label>
        <select id={`${id}-era`} value={form.protocolEra} aria-describedby={`${id}-era-hint`}
          onChange={(e) => set({ protocolEra: e.target.value as ServerForm["protocolEra"] })}>
          {ERAS.map((era) => (
            <option key={era.value} value={era.value}>
              {era.label}
            </option>
          ))}
        </select>
        <p id={`${id}-era-hint`} className="hint">
          Force one only for a server that the automatic choice confuses; its details say what was chosen and why.
        </p>
      </div>

      <div className="field">
        <label className="check">
          <input type="checkbox" checked={form.trusted} aria-describedby={`${id}-trust-hint`} onChange={(e) => set({ trusted: e.target.checked })} />
          Trust this server's tool annotations
        </label>
        <p id={`${id}-trust-hint`} className="hint">
          Servers describe their own tools, e.g. as read-only. Untrusted, those are only claims shown to you; trusted, tools this
          server marks read-only run without asking.
        </p>
      </div>

      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Saving…" : mode === "add" ? "Add server" : "Save changes"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
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
  const words = splitCommandLine(command);
  const [program, ...args] = words;
  if (program === undefined || args.length === 0) return null;
  const label = `Split into ${program} and ${args.length === 1 ? "1 argument" : `${args.length} arguments`}`;
  return (
    <p className="split-offer">
      <span>This looks like a command with its arguments.</span>{" "}
      <button type="button" onClick={() => onSplit(program, args)}>
        {label}
      </button>
    </p>
  );
}

/** What a secret's field says about the keyring. */
const keyringHint = (stored: boolean) =>
  stored ? "Stored in the keyring; leave empty to keep." : "Kept in the keyring, never in the configuration file.";

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

import type { KeyValue_Serialize as KeyValue, OAuthGrant, ServerForm_Serialize as ServerForm } from "../bindings";
import { t } from "../i18n";

/**
 * Problems by field: "name", "command", "cwd", "url", "requestTimeoutSecs", "args.<i>",
 * "env.<i>.key", "env.<i>.value", "headers.<i>.key", "headers.<i>.value", "clientId", "clientSecret",
 * "clientIssuer", "privateKey", "signingAlgorithm", "tokenFile", "idpTokenEndpoint", "idpClientId", "idTokenFile".
 */
export type ServerFormErrors = Record<string, string>;

export type RowKind = "env" | "headers";

export function emptyServerForm(): ServerForm {
  return {
    name: "",
    transport: "stdio",
    enabled: true,
    command: "",
    args: [],
    cwd: "",
    env: [],
    url: "",
    httpMode: "auto",
    headers: [],
    clientId: "",
    clientSecret: "",
    clientSecretStored: false,
    clientIssuer: "",
    oauthGrant: "signIn",
    privateKey: "",
    privateKeyStored: false,
    signingAlgorithm: "",
    tokenFile: "",
    idpTokenEndpoint: "",
    idpClientId: "",
    idTokenFile: "",
    dpop: true,
    requestTimeoutSecs: null,
    trusted: false,
    protocolEra: "auto",
    // A server added now runs in the sandbox unless the person says otherwise.
    sandbox: true,
    sandboxNetwork: false,
  };
}

const NAME = /^[A-Za-z0-9._-]+$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 9110 token characters.
const HEADER_KEY = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ABSOLUTE_PATH = /^(\/|~|[A-Za-z]:[\\/]|\\\\)/;
// What the host reads a file at: a path absolute as it stands, without "~".
const FULL_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;
const PEM_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
/** The JWS algorithms the host signs with a private key. */
export const SIGNING_ALGORITHMS = ["ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"] as const;
const MAX_TIMEOUT_SECS = 86_400;

/** A row the person added and left untouched: saved as nothing, never an error. */
export const isBlankRow = (row: KeyValue) => row.key.trim() === "" && row.value === "";

/** True for an absolute http:// or https:// URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * What keeps the form from being saved, by field; empty when it may be saved. Only the
 * chosen transport's fields count. `originalName` is the edited server's name, which it may keep.
 */
export function validateServerForm(
  form: ServerForm,
  existingNames: readonly string[],
  mode: "add" | "edit",
  originalName?: string,
): ServerFormErrors {
  const errors: ServerFormErrors = {};
  const name = form.name.trim();
  const others = mode === "edit" ? existingNames.filter((n) => n !== (originalName ?? name)) : existingNames;
  if (name === "") errors.name = t("serverForm.error.nameEmpty");
  else if (!NAME.test(name)) errors.name = t("serverForm.error.nameCharacters");
  else if (others.includes(name)) errors.name = t("serverForm.error.nameTaken", { name });

  if (form.transport === "stdio") {
    if (form.command.trim() === "") errors.command = t("serverForm.error.commandEmpty");
    form.args.forEach((arg, i) => {
      if (arg === "") errors[`args.${i}`] = t("serverForm.error.argEmpty");
    });
    const cwd = form.cwd.trim();
    if (cwd !== "" && !ABSOLUTE_PATH.test(cwd)) errors.cwd = t("serverForm.error.cwdRelative");
    checkRows("env", form.env, mode, errors);
  } else {
    if (form.url.trim() === "") errors.url = t("serverForm.error.urlEmpty");
    else if (!isHttpUrl(form.url)) errors.url = t("serverForm.error.urlWrong");
    checkRows("headers", form.headers, mode, errors);
    checkClient(form, errors);
  }

  const timeout = form.requestTimeoutSecs;
  if (timeout !== null && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= MAX_TIMEOUT_SECS))
    errors.requestTimeoutSecs = t("serverForm.error.timeout", { max: MAX_TIMEOUT_SECS });
  return errors;
}

/** Whether the grant `grant` sends the client secret (it has none with a workload's token). */
export const usesClientSecret = (grant: OAuthGrant) => grant !== "workload";

/** The client's fields as its grant uses them, checked as the host checks them on saving. */
function checkClient(form: ServerForm, errors: ServerFormErrors) {
  const grant = form.oauthGrant;
  const clientId = form.clientId.trim();
  const issuer = form.clientIssuer.trim();
  if (grant === "signIn") {
    if (clientId === "" && form.clientSecret !== "") errors.clientId = t("serverForm.error.clientIdForSecret");
    else if (clientId !== "" && (form.clientSecret !== "" || form.clientSecretStored) && issuer === "")
      errors.clientIssuer = t("serverForm.error.issuerForSecret");
  } else {
    if (clientId === "" && grant !== "workload") errors.clientId = t("serverForm.error.clientIdForApp");
    if (issuer === "") errors.clientIssuer = t("serverForm.error.issuerRequired");
  }
  if (issuer !== "" && !isHttpUrl(issuer)) errors.clientIssuer = t("serverForm.error.urlWrong");

  if (grant === "clientCredentials") {
    const secret = form.clientSecret !== "" || form.clientSecretStored;
    const key = form.privateKey !== "" || form.privateKeyStored;
    if (!secret && !key) errors.clientSecret = t("serverForm.error.secretOrKey");
    if (form.privateKey !== "" && !PEM_KEY.test(form.privateKey))
      errors.privateKey = t("serverForm.error.privateKeyPem");
    const algorithm = form.signingAlgorithm.trim();
    if (algorithm !== "" && !(SIGNING_ALGORITHMS as readonly string[]).includes(algorithm))
      errors.signingAlgorithm = t("serverForm.error.signingAlgorithm", { algorithms: SIGNING_ALGORITHMS.join(", ") });
  } else if (grant === "workload") {
    if (!FULL_PATH.test(form.tokenFile.trim())) errors.tokenFile = t("serverForm.error.tokenFile");
  } else if (grant === "enterprise") {
    if (form.idpTokenEndpoint.trim() === "") errors.idpTokenEndpoint = t("serverForm.error.idpTokenEndpoint");
    else if (!isHttpUrl(form.idpTokenEndpoint)) errors.idpTokenEndpoint = t("serverForm.error.urlWrong");
    if (form.idpClientId.trim() === "") errors.idpClientId = t("serverForm.error.idpClientId");
    if (!FULL_PATH.test(form.idTokenFile.trim())) errors.idTokenFile = t("serverForm.error.idTokenFile");
  }
}

function checkRows(kind: RowKind, rows: readonly KeyValue[], mode: "add" | "edit", errors: ServerFormErrors) {
  const env = kind === "env";
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (isBlankRow(row)) return;
    const key = row.key.trim();
    // Header names are case-insensitive, variable names are not.
    const id = env ? key : key.toLowerCase();
    const at = `${kind}.${i}`;
    if (key === "") errors[`${at}.key`] = t("serverForm.error.nameEmpty");
    else if (!(env ? ENV_KEY : HEADER_KEY).test(key))
      errors[`${at}.key`] = env
        ? t("serverForm.error.envKey")
        : t("serverForm.error.headerKey");
    else if (seen.has(id)) errors[`${at}.key`] = t("serverForm.error.keyTwice", { key });
    seen.add(id);

    const keepsStored = mode === "edit" && row.stored === true;
    if (row.secret && row.value === "" && !keepsStored)
      errors[`${at}.value`] = t("serverForm.error.secretEmpty");
    else if (!env && /[\r\n]/.test(row.value)) errors[`${at}.value`] = t("serverForm.error.headerLines");
  });
}

/**
 * The form as it is saved: names and paths trimmed, untouched rows dropped, the other
 * transport's fields and those the client's grant does not use emptied (no stray secret
 * travels along); values kept as typed.
 */
export function normalizeServerForm(form: ServerForm): ServerForm {
  const rows = (list: KeyValue[]) => list.filter((row) => !isBlankRow(row)).map((row) => ({ ...row, key: row.key.trim() }));
  const name = form.name.trim();
  return form.transport === "stdio"
    ? { ...form, name, command: form.command.trim(), cwd: form.cwd.trim(), env: rows(form.env), url: "", headers: [], clientSecret: "", privateKey: "" }
    : { ...form, name, url: form.url.trim(), headers: rows(form.headers), command: "", args: [], cwd: "", env: [], ...grantFields(form) };
}

/** The client's grant-specific fields as saved: the grant's own, the others emptied. */
function grantFields(form: ServerForm): Partial<ServerForm> {
  const grant = form.oauthGrant;
  const credentials = grant === "clientCredentials";
  const enterprise = grant === "enterprise";
  const secret = usesClientSecret(grant);
  return {
    clientSecret: secret ? form.clientSecret : "",
    clientSecretStored: secret && form.clientSecretStored,
    privateKey: credentials ? form.privateKey : "",
    privateKeyStored: credentials && form.privateKeyStored,
    signingAlgorithm: credentials ? form.signingAlgorithm.trim() : "",
    tokenFile: grant === "workload" ? form.tokenFile.trim() : "",
    idpTokenEndpoint: enterprise ? form.idpTokenEndpoint.trim() : "",
    idpClientId: enterprise ? form.idpClientId : "",
    idTokenFile: enterprise ? form.idTokenFile.trim() : "",
  };
}

/**
 * Splits a command line into words as a shell would: on blanks, with '…' and "…" keeping
 * their blanks, and a backslash escaping a blank or a quote. Any other backslash stays as
 * typed, so that Windows paths (C:\Tools\server.exe, \\host\share) come through whole.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    const next = line[i + 1];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && next === '"') {
        word += next;
        i++;
      } else word += c;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      inWord = true;
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\" && next !== undefined && /[\s'"]/.test(next)) {
        word += next;
        i++;
      } else word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}

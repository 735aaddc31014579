import type { CommandError, DecidedBy, ImportError, InstallLinkError, Reason, RegistryError, RequestFailure, SecretError, SetupError, Told, Trouble, LinkError, ViewError, SkillError, InstallError } from "./bindings";
import { reasonText } from "./servers/reasons";
import { requestFailureText } from "./servers/requestFailure";
import { troubleText } from "./chat/trouble";
import { setupErrorText } from "./agents/setupError";
import { decidedByText } from "./activity/decisions";
import { installErrorText, installLinkErrorText, registryErrorText } from "./registry/errors";
import { importErrorText } from "./servers/imports";
import { viewErrorText } from "./views/viewError";
import { skillErrorText } from "./explorer/skillError";
import { storeFaultText } from "./shell/storeFault";
import { configProblemText } from "./shell/configProblem";
import { t, type MessageId } from "./i18n";

function isCommandError(err: unknown): err is CommandError {
  return typeof err === "object" && err !== null && "code" in err && "message" in err;
}

/** The code of a command's error, to branch on; none for anything else. */
export function errorCode(err: unknown): CommandError["code"] | null {
  return isCommandError(err) ? err.code : null;
}

/** The message of each kind of error the host tells in its own words (every kind: typed). */
export const TOLD: { readonly [Kind in Told["kind"]]: MessageId } = {
  brokenConfig: "errors.brokenConfig",
  config: "errors.config",
  noServer: "errors.noServer",
  notRunning: "errors.notRunning",
  shuttingDown: "errors.shuttingDown",
  notPending: "errors.notPending",
  noSignIn: "errors.noSignIn",
  notLocal: "errors.notLocal",
  signIn: "errors.signIn",
  noServerName: "errors.noServerName",
  badServerName: "errors.badServerName",
  serverTaken: "errors.serverTaken",
  noCommand: "errors.noCommand",
  badUrl: "errors.badUrl",
  duplicate: "errors.duplicate",
  emptySecret: "errors.emptySecret",
  badToken: "errors.badToken",
  secretWithoutClient: "errors.secretWithoutClient",
  secretWithoutIssuer: "errors.secretWithoutIssuer",
  noClientId: "errors.noClientId",
  noClientCredential: "errors.noClientCredential",
  badKey: "errors.badKey",
  noFile: "errors.noFile",
  noIdentityProvider: "errors.noIdentityProvider",
  serverChanged: "errors.serverChanged",
  noTool: "errors.noTool",
  toolDisabled: "errors.toolDisabled",
  notForViews: "errors.notForViews",
  noProvider: "errors.noProvider",
  noProviderName: "errors.noProviderName",
  badProviderName: "errors.badProviderName",
  providerTaken: "errors.providerTaken",
  emptyKey: "errors.emptyKey",
  keyGone: "errors.keyGone",
  providerChanged: "errors.providerChanged",
  notShared: "errors.notShared",
  noModel: "errors.noModel",
  noModelOf: "errors.noModelOf",
  noSuchModel: "errors.noSuchModel",
  chatRunning: "errors.chatRunning",
  draftStopped: "errors.draftStopped",
  noAgent: "errors.noAgent",
  badAgentName: "errors.badAgentName",
  install: "errors.install",
  request: "errors.request",
  callDenied: "errors.callDenied",
  callCancelled: "errors.callCancelled",
  provider: "errors.provider",
  keyring: "errors.keyring",
  badPrice: "errors.badPrice",
  priceUnnamed: "errors.priceUnnamed",
  badProfile: "errors.badProfile",
  profileUnnamed: "errors.profileUnnamed",
  agentSetup: "errors.agentSetup",
  link: "errors.link",
  view: "errors.view",
  stepsInBrowser: "errors.stepsInBrowser",
  skill: "errors.skill",
  // Said by its fault (see `errorMessage`).
  store: "errors.store.database",
  noConversation: "errors.noConversation",
  conversationChanged: "errors.conversationChanged",
  conversationsNotKept: "errors.conversationsNotKept",
  noTask: "errors.noTask",
  registry: "errors.registry",
  import: "errors.import",
  installLink: "errors.installLink",
};

/**
 * A readable message for whatever a command rejected with: the host's own words by their
 * kind, in the window's language; anything else (a server's, the system's) as it came, for
 * the view to place in a sentence of its own.
 */
export function errorMessage(err: unknown): string {
  if (isCommandError(err)) {
    if (err.told?.kind === "brokenConfig") return t("errors.brokenConfig", { problem: configProblemText(err.told.problem) });
    if (err.told?.kind === "config") return configProblemText(err.told.problem);
    if (err.told?.kind === "store") return storeFaultText(err.told.book, err.told.fault);
    if (err.told?.kind === "stepsInBrowser") {
      const { server, steps, opened } = err.told;
      return t(opened === steps ? "errors.stepsInBrowser" : "errors.stepsNotOpened", { server, steps });
    }
    if (err.told) {
      const { kind, ...values } = err.told;
      // Ids and counts are shown as the host wrote them, not as numbers to format; what an
      // answer sets and who decided, in the window's words.
      const shown = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, said(k, v)]));
      return t(TOLD[kind], shown);
    }
    return err.message;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The values an error names that the window words itself, by the key they come under. */
const WORDED: { readonly [key: string]: (value: never) => string } = {
  decidedBy: (value: DecidedBy) => decidedByText(value),
  trouble: (value: Trouble) => troubleText(value),
  failure: (value: RequestFailure) => requestFailureText(value),
  registry: (value: RegistryError) => registryErrorText(value),
  keyring: (value: SecretError) => keyringText(value),
  setup: (value: SetupError) => setupErrorText(value),
  link: (value: LinkError | InstallLinkError) => linkErrorText(value),
  view: (value: ViewError) => viewErrorText(value),
  skill: (value: SkillError) => skillErrorText(value),
  import: (value: ImportError) => importErrorText(value),
  install: (value: InstallError) => installErrorText(value),
  // A sign-in's failure: why, as a server's state says it.
  detail: (value: Reason) => reasonText(value),
};

/** A value an error names, as the window shows it: a kind of the host's in the window's words, anything else as it came. */
function said(key: string, value: unknown): string {
  const worded = WORDED[key];
  if (worded && typeof value === "object" && value !== null) return worded(value as never);
  return String(value);
}

/** Why the keyring could not keep or give a secret, in the window's language; the keyring's own words as they came, the secret's name quoted as the host quotes it. */
export function keyringText(error: SecretError): string {
  switch (error.kind) {
    case "unavailable":
      return t("errors.keyring.unavailable", { detail: error.of });
    case "refused":
      return t("errors.keyring.refused", { action: error.of.action, name: JSON.stringify(error.of.name), detail: error.of.detail });
  }
}

/** Why a link is not opened or followed: a server's link (`LinkError`) or a `switchboard://` link that does not install. */
function linkErrorText(error: LinkError | InstallLinkError): string {
  switch (error.kind) {
    case "unreadable":
      return t("errors.link.unreadable", { link: JSON.stringify(error.of.link), reason: error.of.reason });
    case "notWeb":
      return t("errors.link.notWeb", { scheme: error.of.scheme });
    case "credentials":
      return t("errors.link.credentials");
    default:
      return installLinkErrorText(error);
  }
}

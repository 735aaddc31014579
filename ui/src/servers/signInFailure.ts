import type { AuthError } from "../bindings";
import { t } from "../i18n";

/**
 * Why signing in to a server failed or was not completed, in the window's language; the
 * addresses, an authorization server's codes and words, and the system's as they came.
 * Counts and waits as the host wrote them: the English is the engine's, word for word.
 */
export function signInFailureText(failure: AuthError): string {
  switch (failure.kind) {
    case "discovery":
      return t("servers.signIn.discovery", { url: failure.url, detail: failure.detail });
    case "resourceMismatch":
      return t("servers.signIn.resourceMismatch", { published: failure.published, server: failure.server });
    case "unreachable":
      return t("servers.signIn.unreachable", { url: failure.url, reason: failure.reason });
    case "noAuthorizationServer":
      return t("servers.signIn.noAuthorizationServer");
    case "issuerMismatch":
      return t("servers.signIn.issuerMismatch", { expected: failure.expected, claimed: failure.claimed });
    case "pkceUnsupported":
      return t("servers.signIn.pkceUnsupported", { issuer: failure.issuer });
    case "noRegistration":
      return t("servers.signIn.noRegistration", { issuer: failure.issuer });
    case "secretForAnotherIssuer":
      return failure.entered === null
        ? t("servers.signIn.secretForNoIssuer", { named: failure.named })
        : t("servers.signIn.secretForAnotherIssuer", { entered: failure.entered, named: failure.named });
    case "credentialsForAnotherIssuer":
      return t("servers.signIn.credentialsForAnotherIssuer", { entered: failure.entered, named: failure.named });
    case "registration":
      return t("servers.signIn.registration", { issuer: failure.issuer, detail: failure.detail });
    case "stateMismatch":
      return t("servers.signIn.stateMismatch");
    case "issuerResponseMismatch":
      return failure.found === null
        ? t("servers.signIn.noIssuerInResponse", { expected: failure.expected })
        : t("servers.signIn.issuerResponseMismatch", { found: failure.found, expected: failure.expected });
    case "denied":
      return failure.description === null
        ? t("servers.signIn.denied", { error: failure.error })
        : t("servers.signIn.deniedWhy", { error: failure.error, description: failure.description });
    case "noCode":
      return t("servers.signIn.noCode");
    case "token":
      return t("servers.signIn.token", { url: failure.url, detail: failure.detail });
    case "stepUpLimit":
      return t("servers.signIn.stepUpLimit", { attempts: String(failure.attempts), scopes: failure.scopes });
    case "forbidden":
      return t("servers.signIn.forbidden", { detail: failure.detail });
    case "signedOut":
      return t("servers.signIn.signedOut");
    case "notSignedInYet":
      return t("servers.signIn.notSignedInYet");
    case "declined":
      return t("servers.signIn.declined");
    case "cancelled":
      return t("servers.signIn.cancelled");
    case "browserDidNotReturn":
      // Whole seconds, or milliseconds under one, as the host counts them.
      return failure.millis >= 1000
        ? t("servers.signIn.browserDidNotReturnSeconds", { seconds: String(Math.floor(failure.millis / 1000)) })
        : t("servers.signIn.browserDidNotReturnMillis", { millis: String(failure.millis) });
    case "notCompleted":
      return t("servers.signIn.notCompleted", { why: failure.why });
    case "store":
      return t("servers.signIn.store", { detail: failure.detail });
  }
}

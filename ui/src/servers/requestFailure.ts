import type { RequestFailure } from "../bindings";
import { t } from "../i18n";
import { reasonText } from "./reasons";

/**
 * Why a request to a server came to nothing (the person's in the Explorer, a model's in the
 * chat), in the window's language; the server's message, the system's and the checker's
 * words in it as they came. Codes, sizes and limits as the host wrote them, not numbers to
 * format: they name what the protocol and the engine count.
 */
export function requestFailureText(failure: RequestFailure): string {
  switch (failure.kind) {
    case "serverError":
      return t("errors.request.serverError", { method: failure.method, message: failure.message, code: String(failure.code) });
    case "noAnswer":
      return t("errors.request.noAnswer", { method: failure.method, seconds: failure.seconds });
    case "cancelled":
      return t("errors.request.cancelled", { method: failure.method });
    case "undelivered":
      return t("errors.request.undelivered", { method: failure.method, reason: reasonText(failure.reason) });
    case "closed":
      return t("errors.request.closed", { reason: reasonText(failure.reason) });
    case "tooLarge":
      return t("errors.request.tooLarge", { method: failure.method, bytes: String(failure.bytes), limit: String(failure.limit) });
    case "unreadable":
      return t("errors.request.unreadable", { method: failure.method, error: failure.error });
    case "badResult":
      return t("errors.request.badResult", { method: failure.method, detail: failure.detail });
    case "badArguments":
      return t("errors.request.badArguments", { tool: failure.tool, errors: failure.errors });
    case "badStructuredContent":
      return t("errors.request.badStructuredContent", { tool: failure.tool, errors: failure.errors });
    case "noStructuredContent":
      return t("errors.request.noStructuredContent", { tool: failure.tool });
    case "unusableSchema":
      return t("errors.request.unusableSchema", { tool: failure.tool, output: String(failure.output), error: failure.error });
    case "notOffered":
      return t("errors.request.notOffered", { what: failure.what });
    case "noSharedRevision":
      return t("errors.request.noSharedRevision", { supported: failure.supported });
    case "revisionRefused":
      return t("errors.request.revisionRefused", { method: failure.method, requested: failure.requested, supported: failure.supported });
    case "said":
      return failure.text;
  }
}

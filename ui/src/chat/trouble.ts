import type { Trouble } from "../bindings";
import { t } from "../i18n";

/** What went wrong with a model's provider, in the window's language; the provider's own message as it sent it. */
export function troubleText(trouble: Trouble): string {
  // A status and a wait as the provider gave them, not numbers to format.
  const http = "status" in trouble && trouble.status !== null ? t("chat.trouble.http", { status: String(trouble.status) }) : "";
  const wait = "retryAfter" in trouble && trouble.retryAfter !== null ? t("chat.trouble.wait", { seconds: trouble.retryAfter }) : "";
  switch (trouble.kind) {
    case "auth":
      return t("chat.trouble.auth", { http, message: trouble.message });
    case "rateLimited":
      return t("chat.trouble.rateLimited", { wait, message: trouble.message });
    case "unavailable":
      return t("chat.trouble.unavailable", { http, wait, message: trouble.message });
    case "quotaExceeded":
      return t("chat.trouble.quota", { http, message: trouble.message });
    case "contextTooLong":
      return t("chat.trouble.tooLong", { http, message: trouble.message });
    case "refused":
      return t("chat.trouble.refused", { http, message: trouble.message });
    case "connection":
      return t("chat.trouble.connection", { detail: trouble.detail });
    case "malformedResponse":
      return t("chat.trouble.malformedResponse", { detail: trouble.detail });
    case "malformedStream":
      return t("chat.trouble.malformedStream", { detail: trouble.detail });
    case "config":
      return t("chat.trouble.config", { detail: trouble.detail });
  }
}

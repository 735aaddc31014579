import type { Unreadable } from "../bindings";
import { t } from "../i18n";

/** A registry entry that could not be read, in the window's language: its name (quoted as the host quotes it) or its place in the page, where in it, and the parser's words as they came. */
export function unreadableText(entry: Unreadable): string {
  const named = entry.name == null ? t("registry.browser.entryAt", { position: String(entry.position) }) : JSON.stringify(entry.name);
  return t("registry.browser.unreadableEntry", { entry: named, path: entry.path, error: entry.error });
}

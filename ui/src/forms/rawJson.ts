/**
 * Raw JSON typed by the person. Text that does not parse cannot become a value, yet it
 * must not be dropped: the form hands its caller a value marked as broken, which
 * `validate` reports under the "" key, so a submit is blocked until it is fixed.
 */

import { t } from "../i18n";

const BROKEN = Symbol("unparsed JSON");

export type ParsedObject = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Parses text that must hold one JSON object; its error in the window's language now. */
export function parseJsonObject(text: string): ParsedObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // The parser's own words (the engine's, in its language) follow the window's.
    return { ok: false, error: t("forms.json.invalid", { message: err instanceof Error ? err.message : String(err) }) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: t("forms.json.notObject", { example: '{ "name": "value" }' }) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** A value that stands for JSON the person typed but that does not parse. */
export function brokenJson(error: string): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  Object.defineProperty(value, BROKEN, { value: error, enumerable: false });
  return value;
}

/** The parse error a value stands for, if it is one from `brokenJson`. */
export function jsonErrorOf(value: Record<string, unknown>): string | undefined {
  const error: unknown = (value as { [BROKEN]?: unknown })[BROKEN];
  return typeof error === "string" ? error : undefined;
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

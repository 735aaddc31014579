/** Helpers for the base64 payloads of MCP content: sizes, safe data: URLs, text decoding. */

import { format, t } from "../i18n";

/** The only image types shown as pictures: formats a browser decodes without running anything. */
const PREVIEWABLE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bare, lower-case type of a MIME string ("Image/PNG; x=y" -> "image/png"), or null if malformed. */
export function normalizeMime(mimeType: string | undefined): string | null {
  if (mimeType === undefined) return null;
  const bare = (mimeType.split(";")[0] ?? "").trim().toLowerCase();
  return MIME.test(bare) ? bare : null;
}

export function isPreviewableImage(mime: string | null): boolean {
  return mime !== null && PREVIEWABLE_IMAGES.has(mime);
}

export function isJsonMime(mime: string | null): boolean {
  return mime === "application/json" || (mime?.endsWith("+json") ?? false);
}

/** Servers may wrap base64 across lines; whitespace carries no data. */
function compact(base64: string): string {
  return base64.replace(/\s+/g, "");
}

export function isValidBase64(base64: string): boolean {
  const clean = compact(base64);
  return clean.length % 4 !== 1 && BASE64.test(clean);
}

/** Bytes that a base64 string stands for, computed without decoding it. */
export function base64Size(base64: string): number {
  const clean = compact(base64);
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/**
 * A data: URL for a payload, or null when the type or data could break out of the URL.
 * Both parts come from a server, so they are checked rather than trusted.
 */
export function dataUrl(mime: string | null, base64: string): string | null {
  if (mime === null || !isValidBase64(base64)) return null;
  return `data:${mime};base64,${compact(base64)}`;
}

/** The payload read as UTF-8 text (bad sequences become U+FFFD), or null if it is not base64. */
export function decodeBase64Text(base64: string): string | null {
  if (!isValidBase64(base64)) return null;
  try {
    const binary = atob(compact(base64));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/** A size as the window's language writes it: 512 bytes, 1.5 KB, 3.0 MB (of 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return t("size.bytes", { count: bytes });
  if (bytes < 1024 * 1024) return t("size.kilobytes", { size: format.tenths(bytes / 1024) });
  return t("size.megabytes", { size: format.tenths(bytes / (1024 * 1024)) });
}

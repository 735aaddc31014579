import { parse } from "partial-json";

/**
 * The arguments a model has written so far, from their unfinished JSON, as far as they
 * read as an object; null before they do. `partial-json` completes what is cut off (an
 * open string, an unclosed object) the way the extension expects of a host.
 */
export function partialInput(text: string): Record<string, unknown> | null {
  if (text.trim() === "") return null;
  try {
    const value: unknown = parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

import { MAX_RENDERED } from "./logFilter";

/**
 * How much of a server's log the window keeps as it arrives: no more than the host keeps
 * (its newest lines, within a mebibyte), so that a server flooding its log cannot fill
 * the window's memory.
 */
export const LIVE_LOG_BOUND = { lines: MAX_RENDERED, chars: 1024 * 1024 };

/** `lines` then `added`, less the oldest lines beyond the bound; the newest always stays. */
export function appendBounded<T extends { text: string }>(lines: readonly T[], added: T, bound = LIVE_LOG_BOUND): T[] {
  const next = [...lines, added];
  let chars = 0;
  for (const line of next) chars += line.text.length;
  let drop = Math.max(0, next.length - bound.lines);
  for (let i = 0; i < drop; i++) chars -= next[i]!.text.length;
  while (chars > bound.chars && drop < next.length - 1) chars -= next[drop++]!.text.length;
  return drop === 0 ? next : next.slice(drop);
}

import type { TrafficEntry_Serialize as TrafficEntry } from "../bindings";
import { t } from "../i18n";

/**
 * How much of a server's traffic the window keeps as it arrives: no more than the host
 * keeps (its newest messages, within its bytes), so a chatty server cannot fill the
 * window's memory.
 */
export const LIVE_TRAFFIC_BOUND = { messages: 2000, chars: 4 * 1024 * 1024 };

/** Rendering stops at this many messages (the newest); more is slow and nobody reads it. */
export const MAX_RENDERED_TRAFFIC = 500;

export interface TrafficState {
  entries: TrafficEntry[];
  /** Older messages dropped, by the host and by the window. */
  dropped: number;
}

/** `state` with `added` appended (unless already there), less the oldest beyond the bound. */
export function appendTraffic(state: TrafficState, added: TrafficEntry, bound = LIVE_TRAFFIC_BOUND): TrafficState {
  const last = state.entries[state.entries.length - 1];
  if (last && added.seq <= last.seq) return state;
  const next = [...state.entries, added];
  let chars = 0;
  for (const entry of next) chars += entry.json.length;
  let drop = Math.max(0, next.length - bound.messages);
  for (let i = 0; i < drop; i++) chars -= next[i]!.json.length;
  while (chars > bound.chars && drop < next.length - 1) chars -= next[drop++]!.json.length;
  return { entries: drop === 0 ? next : next.slice(drop), dropped: state.dropped + drop };
}

export type DirectionFilter = "all" | "sent" | "received";

export interface TrafficFilter {
  /** Matched, without case, against the method, then against the JSON text. */
  text: string;
  direction: DirectionFilter;
}

/** The entries that pass the filter. A response matches through its request's method. */
export function filterTraffic(entries: readonly TrafficEntry[], filter: TrafficFilter): TrafficEntry[] {
  const needle = filter.text.trim().toLowerCase();
  return entries.filter((entry) => {
    if (filter.direction !== "all" && entry.direction !== filter.direction) return false;
    if (needle === "") return true;
    return (entry.method ?? "").toLowerCase().includes(needle) || entry.json.toLowerCase().includes(needle);
  });
}

/** For each request and response, the `seq` of its partner, where both are kept. */
export function pairs(entries: readonly TrafficEntry[]): Map<number, number> {
  const kept = new Set(entries.map((e) => e.seq));
  const partner = new Map<number, number>();
  for (const entry of entries) {
    const request = entry.requestSeq;
    if (request === null || !kept.has(request)) continue;
    partner.set(entry.seq, request);
    partner.set(request, entry.seq);
  }
  return partner;
}

/** The JSON indented for reading; text that is not JSON (a cut message) as it is. */
export function prettyJson(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** What a message is, in a word or two of the window's language. Call it while rendering. */
export function describeKind(entry: TrafficEntry): string {
  switch (entry.kind) {
    case "request":
      return t("servers.traffic.kind.request");
    case "notification":
      return t("servers.traffic.kind.notification");
    case "response":
      return t("servers.traffic.kind.response");
    case "error":
      return t("servers.traffic.kind.error");
    case "batch":
      return t("servers.traffic.kind.batch");
    default:
      return t("servers.traffic.kind.unreadable");
  }
}

/**
 * Puts `text` on the clipboard. The asynchronous clipboard needs a permission a webview
 * may not grant; a selected text area copied the old way works everywhere.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Falls through to the old way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error(t("servers.traffic.clipboardRefused"));
}

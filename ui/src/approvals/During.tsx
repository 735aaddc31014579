import type { Origin, Serving } from "../bindings";

/** Whose call it is, before "call": "your", "Claude Code's", "a model's". */
function whose(origin: Origin): string {
  switch (origin.by) {
    case "person":
      return "your";
    case "agent":
      return `${origin.name}’s`;
    case "model":
      return `a model’s (conversation “${origin.title}”)`;
    case "app":
      return `the app of ${origin.server}’s`;
  }
}

/** "a", "a and b", "a, b and c". */
function listed(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * The calls a server was serving when it asked, in words: "While serving Claude Code’s call
 * to search". Null when it asked on its own.
 */
export function duringText(during: readonly Serving[]): string | null {
  if (during.length === 0) return null;
  return `While serving ${listed(during.map((s) => `${whose(s.origin)} call to ${s.call}`))}`;
}

/** Says which calls a server's question arises from, if any. */
export function During({ during }: { during?: readonly Serving[] | undefined }) {
  const text = duringText(during ?? []);
  return text === null ? null : <span className="approval-during">{text}. </span>;
}

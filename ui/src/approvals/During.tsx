import type { Origin, Serving } from "../bindings";
import { t, useT } from "../i18n";
import { readNamed } from "./readSubject";

/** One call served, and whose it is: "your call to index", "Claude Code’s call to search". */
function callOf(origin: Origin, call: string): string {
  switch (origin.by) {
    case "person":
      return t("approvals.during.person", { call });
    case "agent":
      return t("approvals.during.agent", { agent: origin.name, call });
    case "model":
      return t("approvals.during.model", { title: origin.title, call });
    case "app":
      return t("approvals.during.app", { server: origin.server, call });
  }
}

/** "a", "a and b", "a, b and c", in the window's language. */
function listed(items: string[]): string {
  if (items.length < 2) return items.join("");
  return t("approvals.list.last", {
    items: items.slice(0, -1).join(t("approvals.list.separator")),
    last: items.at(-1),
  });
}

/**
 * The calls a server was serving when it asked, in a sentence: "While serving Claude Code’s
 * call to search." Null when it asked on its own. Call it while rendering.
 */
export function duringText(during: readonly Serving[]): string | null {
  if (during.length === 0) return null;
  return t("approvals.during.text", { calls: listed(during.map((s) => callOf(s.origin, s.read ? readNamed(s.read) : s.call))) });
}

/** Says which calls a server's question arises from, if any. */
export function During({ during }: { during?: readonly Serving[] | undefined }) {
  useT();
  const text = duringText(during ?? []);
  return text === null ? null : <span className="approval-during">{text} </span>;
}

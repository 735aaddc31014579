import { t } from "../i18n";

export type DecisionTone = "yes" | "no" | "other";

const YES = new Set(["allowed", "approved", "accepted"]);
const NO = new Set(["denied", "declined", "timed out", "unanswered", "withdrawn", "refused", "rejected"]);

/** Whether an audit decision let the request through; the words stay on screen either way. */
export function decisionTone(decision: string): DecisionTone {
  const word = decision.trim().toLowerCase();
  return YES.has(word) ? "yes" : NO.has(word) ? "no" : "other";
}

/** How a record says its decision was given, and by what. */
export interface GivenBy {
  decidedBy: string;
  given?: string | null;
}

const POLICY = "policy: ";

/**
 * Who decided and how, in words: the person once, for this session or always (in the dialog), the
 * rule that answered (named), or the person by making the call themselves; a record that says
 * nothing of how (a server's request, an old record) shows who decided as recorded (the host's
 * words, untranslated). Called while rendering: it speaks the window's language.
 */
export function howGiven({ decidedBy, given }: GivenBy): string {
  switch (given) {
    case "once":
      return t("activity.given.once");
    case "session":
      return t("activity.given.session");
    case "always":
      return t("activity.given.always");
    case "rule":
      return t("activity.given.rule", { rule: decidedBy.startsWith(POLICY) ? decidedBy.slice(POLICY.length) : decidedBy });
    case "own":
      return t("activity.given.own");
    default:
      return decidedBy;
  }
}

export type DecisionTone = "yes" | "no" | "other";

const YES = new Set(["allowed", "approved", "accepted"]);
const NO = new Set(["denied", "declined", "timed out", "unanswered", "refused", "rejected"]);

/** Whether an audit decision let the request through; the words stay on screen either way. */
export function decisionTone(decision: string): DecisionTone {
  const word = decision.trim().toLowerCase();
  return YES.has(word) ? "yes" : NO.has(word) ? "no" : "other";
}

import type { DecidedBy, Outcome } from "../bindings";
import { t, type MessageId } from "../i18n";

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
  decidedBy: DecidedBy;
  given?: string | null;
}

/** What a standing rule decides, in words: "allowed for this tool, always". */
function ruleWords(rule: Extract<DecidedBy, { kind: "rule" }>["detail"]): string {
  return t("activity.decided.ruleWords", { verdict: rule.allow ? "allowed" : "denied", reach: rule.reach, scope: rule.scope });
}

/** The words of each decider that has no values of its own. */
const DECIDED: { readonly [Kind in Exclude<DecidedBy["kind"], "rule" | "pace" | "agent" | "recorded">]: MessageId } = {
  person: "activity.decided.person",
  own_call: "activity.decided.ownCall",
  trusted_read_only: "activity.decided.trustedReadOnly",
  sampling_without_review: "activity.decided.samplingWithoutReview",
  remembered: "activity.decided.remembered",
  not_chosen_yet: "activity.decided.notChosenYet",
  caller: "activity.decided.caller",
  timeout: "activity.decided.timeout",
  no_one_to_ask: "activity.decided.noOneToAsk",
  server_withdrew: "activity.decided.serverWithdrew",
  agent_removed: "activity.decided.agentRemoved",
  wrong_answer: "activity.decided.wrongAnswer",
};

/**
 * Who or what decided, in the window's language (the host sends it by kind); a record
 * written before deciders were typed, as it was recorded.
 */
export function decidedByText(decided: DecidedBy): string {
  switch (decided.kind) {
    case "rule":
      return t("activity.decided.rule", { rule: ruleWords(decided.detail) });
    case "pace":
      return t("activity.decided.pace", { limit: String(decided.detail.limit) });
    case "agent":
      return t("activity.decided.agent", { name: decided.detail.name });
    case "recorded":
      return decided.detail;
    default:
      return t(DECIDED[decided.kind]);
  }
}

/** The decisions the audit trail records, by the words it records them in. */
const DECISIONS: Readonly<Record<string, MessageId>> = {
  "allowed": "activity.decision.allowed",
  "denied": "activity.decision.denied",
  "refused": "activity.decision.refused",
  "cancelled": "activity.decision.cancelled",
  "answered": "activity.decision.answered",
  "unanswered": "activity.decision.unanswered",
  "approved": "activity.decision.approved",
  "declined": "activity.decision.declined",
  "accepted": "activity.decision.accepted",
  "invalid answer": "activity.decision.invalidAnswer",
  "shared": "activity.decision.shared",
  "none shared": "activity.decision.noneShared",
  "timed out": "activity.decision.timedOut",
  "withdrawn": "activity.decision.withdrawn",
  "signed in": "activity.decision.signedIn",
  "signed out": "activity.decision.signedOut",
};

const NOT_SIGNED_IN = "not signed in: ";

/** A record's decision in the window's language (one it does not know, as recorded). */
export function decisionText(decision: string): string {
  if (decision.startsWith(NOT_SIGNED_IN)) return t("activity.decision.notSignedIn", { detail: decision.slice(NOT_SIGNED_IN.length) });
  const id = DECISIONS[decision];
  return id ? t(id) : decision;
}

/**
 * Who asked, as the host recorded them ("the person", "agent Cursor", "model in conversation
 * “Trip”", "the app of board"), in the window's language; anything else as recorded.
 */
export function askedByText(asked: string): string {
  if (asked === "the person") return t("activity.askedBy.person");
  const model = /^model in conversation “(.*)”$/s.exec(asked);
  if (model) return t("activity.askedBy.model", { title: model[1] });
  const app = /^the app of (.+)$/s.exec(asked);
  if (app) return t("activity.askedBy.app", { server: app[1] });
  const agent = /^agent (.+)$/s.exec(asked);
  if (agent) return t("activity.askedBy.agent", { name: agent[1] });
  return asked;
}

/** The kinds of record the audit trail keeps, in words. */
const KINDS: Readonly<Record<string, MessageId>> = {
  tool_call: "activity.kind.toolCall",
  sampling: "activity.kind.sampling",
  elicitation: "activity.kind.elicitation",
  roots: "activity.kind.roots",
  sign_in: "activity.kind.signIn",
  read: "activity.kind.read",
};

/** What kind of request a record is of, in the window's language (one it does not know, as named). */
export function kindText(kind: string): string {
  const id = KINDS[kind];
  return id ? t(id) : kind;
}

/** How a call ended, in the window's language; a record written before outcomes were typed, as recorded. */
export function outcomeText(outcome: Outcome): string {
  switch (outcome.kind) {
    case "unknown":
      return "";
    case "succeeded":
      return t("activity.outcome.succeeded");
    case "tool_error":
      return t("activity.outcome.toolError");
    case "failed":
      return t("activity.outcome.failed", { why: outcome.detail });
    case "recorded":
      return outcome.detail;
  }
}

/**
 * Who decided and how, in words: the person once, for this session or always (in the dialog), the
 * rule that answered (named), or the person by making the call themselves; a record that says
 * nothing of how (a server's request, an old record) says who decided. Called while rendering:
 * it speaks the window's language.
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
      return t("activity.given.rule", { rule: decidedBy.kind === "rule" ? ruleWords(decidedBy.detail) : decidedByText(decidedBy) });
    case "own":
      return t("activity.given.own");
    default:
      return decidedByText(decidedBy);
  }
}

import { useT } from "../i18n";
import { formatLeft, useNow } from "./time";
import "./approvals.css";

/**
 * How a request answers itself: "declined", "denied", "cancelled" or "shares nothing", each
 * said in the window's language; any other words are shown as given.
 */
export type CountdownOutcome = "declined" | "denied" | "cancelled" | "shares nothing";

/** The select key of each outcome in the countdown's messages. */
const OUTCOME_KEY: Record<CountdownOutcome, string> = {
  declined: "declined",
  denied: "denied",
  cancelled: "cancelled",
  "shares nothing": "nothing",
};

/** The time left before the host answers by itself, and what that answer will be. */
export function Countdown({ deadlineMs, outcome }: { deadlineMs: number; outcome: CountdownOutcome | (string & {}) }) {
  const t = useT();
  const now = useNow();
  if (!Number.isFinite(deadlineMs)) return null;
  const left = deadlineMs - now;
  const said = Object.hasOwn(OUTCOME_KEY, outcome) ? OUTCOME_KEY[outcome as CountdownOutcome] : outcome;
  return (
    <span className={left < 30_000 ? "countdown countdown-urgent" : "countdown"} role="timer">
      {left > 0
        ? t("approvals.countdown.in", { left: formatLeft(left), outcome: said })
        : t("approvals.countdown.now", { outcome: said })}
    </span>
  );
}

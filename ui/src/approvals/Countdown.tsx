import { formatLeft, useNow } from "./time";
import "./approvals.css";

/** The time left before the host answers by itself, and what that answer will be. */
export function Countdown({ deadlineMs, outcome }: { deadlineMs: number; outcome: string }) {
  const now = useNow();
  if (!Number.isFinite(deadlineMs)) return null;
  const left = deadlineMs - now;
  return (
    <span className={left < 30_000 ? "countdown countdown-urgent" : "countdown"} role="timer">
      {left > 0 ? `Answers itself in ${formatLeft(left)} (${outcome})` : `Answering itself now (${outcome})`}
    </span>
  );
}

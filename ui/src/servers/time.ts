import { useEffect, useState } from "react";
import { format, t } from "../i18n";

/** The current time, re-read every `everyMs` while `active`; Date.now() stays faked under test timers. */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** 14:03:07.250, local time: log lines are read against a clock. */
export function formatClock(ms: number): string {
  if (!Number.isFinite(ms)) return "--:--:--";
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A date and time, local, as the window's language writes one (one way in every view). */
export function formatDateTime(ms: number): string {
  return isoTime(ms) === undefined ? t("time.unknown") : format.dateTime(ms);
}

/** 850 ms, 12.3 s, 4 min 05 s, 2 h 03 min, in the window's language. Call it while rendering. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return t("time.duration.ms", { ms: String(Math.max(0, Math.round(ms))) });
  if (ms < 60_000) return t("time.duration.seconds", { seconds: (ms / 1000).toFixed(1) });
  const secs = Math.floor(ms / 1000);
  if (secs < 3600) return t("time.duration.minutes", { minutes: String(Math.floor(secs / 60)), seconds: pad(secs % 60) });
  return t("time.duration.hours", { hours: String(Math.floor(secs / 3600)), minutes: pad(Math.floor(secs / 60) % 60) });
}

/** Whole seconds for a live counter: 0 s, 59 s, 4 min 05 s. */
export function formatElapsed(ms: number): string {
  const secs = Math.max(0, Math.floor(ms / 1000));
  return secs < 60 ? t("time.duration.seconds", { seconds: String(secs) }) : formatDuration(secs * 1000);
}

/** The machine-readable form of an epoch-ms time for <time dateTime>, if it is one. */
export function isoTime(ms: number): string | undefined {
  // Beyond ±8.64e15 ms a Date is invalid and toISOString throws.
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : undefined;
}

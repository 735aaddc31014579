/**
 * Checks of the string formats a field may declare (email, uri, date, date-time). They
 * match the host's own checks, so an answer accepted here is not refused there.
 */

/** A value of each format, as inputs show it for an example and messages quote it. */
export const EXAMPLE = {
  email: "name@example.com",
  uri: "https://example.com",
  date: "2025-01-31",
  "date-time": "2025-01-31T09:30:00Z",
} as const;

export function isEmail(s: string): boolean {
  const at = s.indexOf("@");
  if (at < 0 || s.indexOf("@", at + 1) >= 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  const localOk =
    local.length > 0 &&
    local.length <= 64 &&
    !local.startsWith(".") &&
    !local.endsWith(".") &&
    !local.includes("..") &&
    !/[\s\p{Cc}@()<>[\]:;,\\"]/u.test(local);
  const labels = domain.split(".");
  const domainOk = labels.length >= 2 && labels.every((l) => /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u.test(l));
  return localOk && domainOk;
}

/** An absolute URI: `scheme:rest`, without spaces or characters URIs forbid. */
export function isUri(s: string): boolean {
  const colon = s.indexOf(":");
  if (colon < 0) return false;
  const scheme = s.slice(0, colon);
  const rest = s.slice(colon + 1);
  return (
    /^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme) &&
    rest.length > 0 &&
    !/[\s\p{Cc}<>"{}|\\^`]/u.test(rest) &&
    !/%(?![0-9A-Fa-f]{2})/.test(rest)
  );
}

/** `YYYY-MM-DD`, a day that exists. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** RFC 3339: `YYYY-MM-DDTHH:MM:SS[.frac]` then `Z` or `±HH:MM`. */
export function isDateTime(s: string): boolean {
  const m = /^(.{10})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m || !isDate(m[1] ?? "")) return false;
  const [h, min, sec] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const offsetOk = m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return h <= 23 && min <= 59 && sec <= 60 && offsetOk;
}

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month === 2) return leap ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

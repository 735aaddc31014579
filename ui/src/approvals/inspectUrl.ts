import { t, type MessageId } from "../i18n";
import { toUnicodeHost } from "./punycode";

export interface UrlInspection {
  /** The address as the browser will request it. */
  href: string;
  /** "https", "http", "javascript", ... ("" when it does not parse). */
  scheme: string;
  /** The host as the browser will contact it (internationalized names in their xn-- form). */
  host: string;
  /** The host as it reads, internationalized names decoded. */
  unicodeHost: string;
  /** Reasons for care, in plain words (the window's language); empty when nothing looks odd. */
  warnings: string[];
  /** Only web addresses may be opened, and none with a user name or password before its host. */
  openable: boolean;
}

const SCRIPTS = [
  "Latin",
  "Cyrillic",
  "Greek",
  "Armenian",
  "Georgian",
  "Cherokee",
  "Hebrew",
  "Arabic",
  "Devanagari",
  "Thai",
  "Han",
  "Hiragana",
  "Katakana",
  "Hangul",
].map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const);

/** Scripts that are written together in one language, so mixing them is no sign of imitation. */
const WRITTEN_TOGETHER: Record<string, string> = { Han: "CJK", Hiragana: "CJK", Katakana: "CJK", Hangul: "CJK" };

/** Each script's name, for the person: the names `scriptsOf` gives. */
const SCRIPT_NAMES: Record<string, MessageId> = {
  Latin: "requests.script.latin",
  Cyrillic: "requests.script.cyrillic",
  Greek: "requests.script.greek",
  Armenian: "requests.script.armenian",
  Georgian: "requests.script.georgian",
  Cherokee: "requests.script.cherokee",
  Hebrew: "requests.script.hebrew",
  Arabic: "requests.script.arabic",
  Devanagari: "requests.script.devanagari",
  Thai: "requests.script.thai",
  CJK: "requests.script.cjk",
  other: "requests.script.other",
};

/** Items in a line, as the window's language separates them: "a, b" or "a、b". */
export function listed(items: readonly string[]): string {
  return items.join(t("requests.list.separator"));
}

function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of label) {
    if (!/\p{L}/u.test(char)) continue;
    const name = SCRIPTS.find(([, re]) => re.test(char))?.[0] ?? "other";
    scripts.add(WRITTEN_TOGETHER[name] ?? name);
  }
  return scripts;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

const MASKED = /%E2%80%A6/gi;

function isLocal(host: string): boolean {
  const [a = 0, b = 0] = host.split(".").map(Number);
  return (
    host === "[::1]" ||
    host === "localhost" ||
    host.endsWith(".localhost") ||
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    /^\[f[cd]/i.test(host)
  );
}

/** Host names a message mentions: in web addresses, or bare names with a common ending. */
function mentionedHosts(message: string): string[] {
  const found = new Set<string>();
  for (const m of message.matchAll(/https?:\/\/([^\s/?#:'"<>)]+)/gi)) found.add((m[1] ?? "").toLowerCase());
  const bare = /\b((?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|ai|co|gov|edu|info|me|us|uk|de|fr|eu))\b/gi;
  for (const m of message.matchAll(bare)) found.add((m[1] ?? "").toLowerCase());
  return [...found].map((h) => h.replace(/^[^@]*@/, ""));
}

function sameSite(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

/**
 * What a person should know about an address before it is opened: its real host, and the
 * signs that it may not be what it seems. Pass the server's message to also check that
 * the host is the one the message names.
 */
export function inspectUrl(url: string, message?: string): UrlInspection {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return {
      href: url,
      scheme: "",
      host: "",
      unicodeHost: "",
      warnings: [t("requests.warning.invalid")],
      openable: false,
    };
  }
  const scheme = parsed.protocol.replace(/:$/, "").toLowerCase();
  const host = parsed.hostname.toLowerCase();
  const unicodeHost = toUnicodeHost(host);
  // The host shows a secret it masked as "…", which the parser percent-encodes.
  const base = { href: parsed.href.replaceAll(MASKED, "…"), scheme, host, unicodeHost };
  if (scheme !== "https" && scheme !== "http") {
    return {
      ...base,
      warnings: [t("requests.warning.scheme", { scheme })],
      openable: false,
    };
  }

  const warnings: string[] = [];
  if (scheme === "http") {
    warnings.push(t("requests.warning.http"));
  }
  // The host refuses to open these too: the name before the host is there to mislead.
  const credentials = parsed.username !== "" || parsed.password !== "";
  if (credentials) {
    const user = decodeURIComponent(parsed.username);
    warnings.push(t(parsed.password ? "requests.warning.userAndPassword" : "requests.warning.user", { user, host }));
  }
  if (IPV4.test(host) || host.startsWith("[")) {
    warnings.push(t("requests.warning.ip", { host }));
  }
  if (isLocal(host)) {
    warnings.push(t("requests.warning.local"));
  }
  if (unicodeHost !== host) {
    warnings.push(t("requests.warning.internationalized", { unicodeHost }));
  }
  const mixed = unicodeHost.split(".").find((label) => scriptsOf(label).size > 1);
  if (mixed !== undefined) {
    // "Cyrillic and Latin"; of three or more, each joined as the language lists them.
    const names = [...scriptsOf(mixed)].map((name) => t(SCRIPT_NAMES[name] ?? "requests.script.other"));
    const scripts = names.reduce((first, second, i) =>
      t(i === names.length - 1 ? "requests.script.and" : "requests.script.joined", { first, second }),
    );
    warnings.push(t("requests.warning.mixed", { label: mixed, scripts }));
  }
  const mentioned = message ? mentionedHosts(message) : [];
  if (mentioned.length > 0 && !mentioned.some((m) => sameSite(m, host) || sameSite(m, unicodeHost))) {
    warnings.push(t("requests.warning.mentions", { mentioned: listed(mentioned), host }));
  }
  return { ...base, warnings, openable: !credentials };
}

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
  /** Reasons for care, in plain words; empty when nothing looks odd. */
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
      warnings: ["This is not a valid web address: it cannot be opened."],
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
      warnings: [`Addresses of the “${scheme}:” kind are refused: only web addresses (https) are opened.`],
      openable: false,
    };
  }

  const warnings: string[] = [];
  if (scheme === "http") {
    warnings.push("Not encrypted (http): anyone on the network could read or change what you see and send.");
  }
  // The host refuses to open these too: the name before the host is there to mislead.
  const credentials = parsed.username !== "" || parsed.password !== "";
  if (credentials) {
    const user = decodeURIComponent(parsed.username);
    warnings.push(
      `The address holds a user name${parsed.password ? " and a password" : ""} (“${user}”) before the host: ` +
        `the page is on ${host}, whatever that name suggests. Addresses like this are refused.`,
    );
  }
  if (IPV4.test(host) || host.startsWith("[")) {
    warnings.push(`The host is a bare IP address (${host}), not a name you could recognize.`);
  }
  if (isLocal(host)) {
    warnings.push("The host is this computer or your local network.");
  }
  if (unicodeHost !== host) {
    warnings.push(
      `The host is an internationalized name that reads as “${unicodeHost}”: its letters may imitate another name.`,
    );
  }
  const mixed = unicodeHost.split(".").find((label) => scriptsOf(label).size > 1);
  if (mixed !== undefined) {
    const scripts = [...scriptsOf(mixed)].join(" and ");
    warnings.push(`The name “${mixed}” mixes ${scripts} letters, which can look identical to other letters.`);
  }
  const mentioned = message ? mentionedHosts(message) : [];
  if (mentioned.length > 0 && !mentioned.some((m) => sameSite(m, host) || sameSite(m, unicodeHost))) {
    warnings.push(`The message mentions ${mentioned.join(", ")}, but the address goes to ${host}.`);
  }
  return { ...base, warnings, openable: !credentials };
}

/**
 * The window's words in the person's language, English or Simplified Chinese: one catalogue
 * of ICU messages per language (plurals, arguments), formatted by FormatJS's `@formatjs/intl`
 * (chosen for ICU MessageFormat on the browser's own `Intl`, and because it needs no React
 * provider: a view or a test that renders a component alone still speaks). The language
 * follows the system's unless the person chose one in the settings; a change re-renders
 * every component that speaks ([`useT`]). Dates, times, numbers and sizes are formatted by
 * the same locale. What servers, models and agents send is never translated.
 */
import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import { createElement, Fragment, useSyncExternalStore, type ReactNode } from "react";
import type { Language } from "../bindings";
import { en, type MessageId } from "./en";
import { zhCN } from "./zh-CN";

export type { MessageId };
export type Locale = Language;

/** Each language in its own words, for the person to recognise theirs. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "简体中文" };

const CATALOGUES: Record<Locale, Readonly<Record<MessageId, string>>> = { en, "zh-CN": zhCN };

/**
 * The language the system prefers, of those the window speaks (Chinese for any `zh` tag):
 * the window's guess from the browser's own languages, until the host tells it the
 * system's (see `setting.ts`).
 */
export function systemLocale(preferred: readonly string[] = navigator.languages): Locale {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower === "zh" || lower.startsWith("zh-")) return "zh-CN";
    if (lower === "en" || lower.startsWith("en-")) return "en";
  }
  return "en";
}

/** A message missing, or that does not format: a failure in tests, a warning otherwise. */
function failed(error: unknown) {
  if (import.meta.env.MODE === "test") throw error;
  console.error(error);
}

const cache = createIntlCache();
const make = (locale: Locale) =>
  createIntl({ locale, messages: CATALOGUES[locale], onError: failed, defaultLocale: "en" }, cache);

let locale: Locale = systemLocale();
let intl: IntlShape<string> = make(locale);
if (typeof document !== "undefined") document.documentElement.lang = locale;
const listeners = new Set<() => void>();

/** The system's language: the browser's guess until the host tells it. */
let system: Locale = locale;

/** Speaks `chosen`, or the system's language (as the host told it, if it did) when none is chosen. */
export function applyLanguage(chosen: Locale | null, systemSays?: Locale) {
  if (systemSays) system = systemSays;
  const next = chosen ?? system;
  if (next === locale) return;
  locale = next;
  intl = make(next);
  document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The language the window speaks now; a component that calls it re-renders on a change. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, () => locale);
}

type Values = Record<string, string | number | boolean | null | undefined | Date>;

/** The message `id` in the window's language, with `values` in its arguments. */
export function t(id: MessageId, values?: Values): string {
  return intl.formatMessage({ id }, values);
}

/**
 * The message `id` with markup in it (`This creates <code>{path}</code>:`): each tag's
 * content made into an element by the function of its name in `values`, so that a sentence
 * stays whole for its translators whatever it holds.
 */
export function tx(id: MessageId, values: Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>): ReactNode {
  // FormatJS types rich values loosely; what it returns is a node or a list of them.
  const rich = intl.formatMessage as unknown as (descriptor: { id: string }, values: object) => ReactNode;
  const made = rich({ id }, values);
  return Array.isArray(made) ? createElement(Fragment, null, ...(made as ReactNode[])) : made;
}

/** [`t`], for a component: it re-renders when the language changes. */
export function useT(): typeof t {
  useLocale();
  return t;
}

/** Dates, times and numbers as the window's language writes them. */
export const format = {
  dateTime: (at: number | Date) => intl.formatDate(at, { dateStyle: "medium", timeStyle: "medium" }),
  date: (at: number | Date) => intl.formatDate(at, { dateStyle: "medium" }),
  time: (at: number | Date) => intl.formatTime(at, { timeStyle: "medium" }),
  number: (n: number) => intl.formatNumber(n),
  /** A number with one decimal: 1.5, 1,023.5. */
  tenths: (n: number) => intl.formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
};

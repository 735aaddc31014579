import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { VIEWS } from "../shell/views";
import { systemLocale } from ".";
import { en } from "./en";
import { zhCN } from "./zh-CN";

const LANGUAGES = { en, "zh-CN": zhCN } as const;

/** The arguments a message takes, each with its kind (`plural` among them). */
function argumentsOf(elements: MessageFormatElement[], found = new Map<string, string>()) {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    found.set(element.value, TYPE[element.type]);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, found);
    }
    if (element.type === TYPE.tag) argumentsOf(element.children, found);
  }
  return found;
}

/** Every source file of the window but the catalogues and the tests, as text. */
const SOURCES = Object.entries(
  import.meta.glob<string>(["../**/*.{ts,tsx}", "!../**/*.test.{ts,tsx}", "!./**"], {
    query: "?raw",
    import: "default",
    eager: true,
  }),
);

/** Messages named through a pattern rather than in full: each view's name and summary. */
const NAMED_BY_PATTERN = new Set(VIEWS.flatMap((v) => [`shell.view.${v.id}.label`, `shell.view.${v.id}.summary`]));

describe("the message catalogues", () => {
  it("hold the same messages in every language, each with the same arguments", () => {
    for (const [language, catalogue] of Object.entries(LANGUAGES)) {
      expect(Object.keys(catalogue).sort(), language).toEqual(Object.keys(en).sort());
      for (const [id, message] of Object.entries(catalogue)) {
        const english = argumentsOf(parse(en[id as keyof typeof en]));
        expect(argumentsOf(parse(message)), `${language} ${id}`).toEqual(english);
      }
    }
  });

  it("count with plurals, never by pasting a number into a sentence", () => {
    for (const [id, message] of Object.entries(en)) {
      for (const [name, kind] of argumentsOf(parse(message))) {
        if (name === "count") expect(kind, id).toBe("plural");
      }
    }
  });

  it("hold only messages the window uses", () => {
    expect(SOURCES.length, "the window's sources are read").toBeGreaterThan(50);
    const unused = Object.keys(en).filter(
      (id) => !NAMED_BY_PATTERN.has(id) && !SOURCES.some(([, text]) => text.includes(`"${id}"`)),
    );
    expect(unused).toEqual([]);
  });
});

describe("the system's language", () => {
  it("is the first the window speaks of those the system prefers, Chinese for any Chinese", () => {
    expect(systemLocale(["zh-CN"])).toBe("zh-CN");
    expect(systemLocale(["fr-FR", "zh-Hans-SG", "en"])).toBe("zh-CN");
    expect(systemLocale(["en-GB", "zh-CN"])).toBe("en");
    expect(systemLocale(["de-DE"])).toBe("en");
    expect(systemLocale([])).toBe("en");
  });
});

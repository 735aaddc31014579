import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import samples from "../testing/reasons.json";
import { exportWords } from "./exportWords";

afterEach(() => act(() => applyLanguage("en")));

describe("the words an export is written in", () => {
  it("are the window's language's, with the names left for the host to put in", () => {
    // In English, the host's own words, the ones it writes in when the window gives none.
    expect(exportWords()).toEqual(samples.exportWords);
    act(() => applyLanguage("zh-CN"));
    const words = exportWords();
    expect(words.you).toBe("你");
    expect(words.toolOf).toBe("{server} 的 {tool}");
    expect(words.untitled).toBe("新对话");
  });
});

import { describe, expect, it } from "vitest";
import { looksLikeMarkdown } from "./markdown";

describe("looksLikeMarkdown", () => {
  it("spots common markdown", () => {
    for (const text of ["# Title", "- one\n- two", "1. first", "```\ncode\n```", "> quoted", "a [link](https://x.y)", "**bold**", "use `npm`"]) {
      expect(looksLikeMarkdown(text), text).toBe(true);
    }
  });

  it("leaves plain text alone", () => {
    for (const text of ["hello world", "42", "Temperature: 21 C\nHumidity: 40%", "a*b*c = 6", "#hashtag"]) {
      expect(looksLikeMarkdown(text), text).toBe(false);
    }
  });
});

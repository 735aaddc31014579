import { describe, expect, it } from "vitest";
import { decisionTone } from "./decisions";

describe("decisionTone", () => {
  it("counts a request no one answered as refused, as the host refuses it", () => {
    expect(decisionTone("timed out")).toBe("no");
    expect(decisionTone("unanswered")).toBe("no");
    expect(decisionTone("withdrawn")).toBe("no");
    expect(decisionTone("allowed")).toBe("yes");
    expect(decisionTone("none shared")).toBe("other");
  });
});

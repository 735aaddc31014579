import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { DecidedBy, Outcome } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/decided.json";
import { askedByText, decidedByText, decisionText, decisionTone, howGiven, outcomeText } from "./decisions";

/** Each decider and outcome as the host words them in English (`src-tauri/told.rs`). */
const deciders = samples.decidedBy as { value: DecidedBy; text: string }[];
const outcomes = samples.outcome as { value: Outcome; text: string }[];
const askers = samples.askedBy as string[];

afterEach(() => act(() => applyLanguage("en")));

describe("who decided and how it ended", () => {
  it("read in English as the audit trail has always worded them", () => {
    for (const { value, text } of deciders) expect(decidedByText(value), value.kind).toBe(text);
    for (const { value, text } of outcomes) expect(outcomeText(value), value.kind).toBe(text);
    for (const asker of askers) expect(askedByText(asker)).toBe(asker);
    for (const decision of ["allowed", "none shared", "timed out", "not signed in: expired"]) {
      expect(decisionText(decision)).toBe(decision);
    }
  });

  it("read in Chinese, an old record and a failure's reason as they were written", () => {
    act(() => applyLanguage("zh-CN"));
    const rule: DecidedBy = { kind: "rule", detail: { allow: true, reach: "tool", scope: "always" } };
    expect(decidedByText(rule)).toBe("策略：此工具已允许，始终");
    expect(howGiven({ decidedBy: rule, given: "rule" })).toBe("规则：此工具已允许，始终");
    expect(decidedByText({ kind: "timeout" })).toBe("超时");
    expect(decidedByText({ kind: "agent", detail: { name: "Cursor" } })).toBe("智能体 Cursor");
    expect(decidedByText({ kind: "recorded", detail: "an old record" })).toBe("an old record");
    expect(outcomeText({ kind: "failed", detail: "the server went away" })).toBe("出错：the server went away");
    expect(decisionText("none shared")).toBe("未共享");
    expect(askers.map(askedByText)).toEqual(["你", "对话“Trip to Kyoto”中的模型", "智能体 Cursor", "board 的应用"]);
    expect(decisionText("not signed in: the code was refused")).toBe("未登录：the code was refused");
    expect(decisionText("a word of an old record")).toBe("a word of an old record");
  });
});

describe("decisionTone", () => {
  it("counts a request no one answered as refused, as the host refuses it", () => {
    expect(decisionTone("timed out")).toBe("no");
    expect(decisionTone("unanswered")).toBe("no");
    expect(decisionTone("withdrawn")).toBe("no");
    expect(decisionTone("allowed")).toBe("yes");
    expect(decisionTone("none shared")).toBe("other");
  });
});

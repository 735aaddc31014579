import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CallFailure } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/reasons.json";
import { failureText } from "./failures";

/** Each way a model's tool call fails, as the host words it (`src-tauri/told.rs`). */
const calls = samples.calls as { text: string; failure: CallFailure }[];

afterEach(() => act(() => applyLanguage("en")));

describe("why a model's tool call failed", () => {
  it("reads in Chinese, a server's own words as they came", () => {
    act(() => applyLanguage("zh-CN"));
    expect(calls.map(({ failure }) => failureText(failure))).toEqual([
      "对话已停止",
      "服务器 demo 未在运行。",
      '没有名为 "demo__nope" 的工具。',
      "参数必须是 JSON 对象；收到的是：[1,2]",
      'demo 没有名为 "pdf" 的技能。',
      "tools/call 在 30.0 秒内没有回应",
      "the call to demo__echo was cancelled before it was allowed",
    ]);
  });
});

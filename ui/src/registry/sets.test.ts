import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Sets } from "../bindings";
import { applyLanguage } from "../i18n";
import { setsText } from "./sets";

const token: Sets = { kind: "variableOf", name: "token", of: { kind: "header", name: "Authorization" } };

afterEach(() => act(() => applyLanguage("en")));

describe("what an answer sets", () => {
  it("is named as the host names it, an argument with no name by its value", () => {
    expect(setsText(token)).toBe("token of header Authorization");
    expect(setsText({ kind: "argument", name: null })).toBe("argument value");
    expect(setsText({ kind: "address", name: "tenant" })).toBe("tenant in the address");
  });

  it("is named in Chinese, the entry's names as they are", () => {
    act(() => applyLanguage("zh-CN"));
    expect(setsText(token)).toBe("请求头 Authorization 中的 token");
    expect(setsText({ kind: "argument", name: "--units" })).toBe("参数 --units");
    expect(setsText({ kind: "argument", name: null })).toBe("参数值");
    expect(setsText({ kind: "address", name: "tenant" })).toBe("地址中的 tenant");
  });
});

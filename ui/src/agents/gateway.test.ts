import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { GatewayProblem } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/reasons.json";
import { gatewayProblemText } from "./gateway";

/** Why the gateway does not listen, as the host words it (`src-tauri/told.rs`). */
const problems = samples.gateway as { text: string; problem: GatewayProblem }[];

afterEach(() => act(() => applyLanguage("en")));

describe("why agents cannot reach Switchboard over HTTP", () => {
  it("reads in Chinese, the system's words as they came", () => {
    act(() => applyLanguage("zh-CN"));
    const said = problems.map(({ problem }) => gatewayProblemText(problem));
    expect(said[0]).toBe("智能体无法通过 HTTP 连接 Switchboard：Permission denied (os error 13)。");
    expect(said[1]).toContain("为端口 47321 设置的智能体可能已把令牌交给了那个程序：没有需要更新的智能体令牌。");
    expect(said[3]).toContain("已签发的 3 个智能体令牌均已更新（未更新：Cursor: the keyring is locked）。请换一个端口");
  });
});

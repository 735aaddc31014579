import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandError, RequestFailure } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/told.json";
import { requestFailureText } from "./requestFailure";

/** One engine error of each kind a request's failure is told as (`src-tauri/told.rs`). */
const failures = (samples as CommandError[]).flatMap((e) => (e.told?.kind === "request" ? [e.told.failure as RequestFailure] : []));

/** Every kind, so that a kind the host gains without a sample fails here. */
const KINDS: { [Kind in RequestFailure["kind"]]: true } = {
  serverError: true,
  noAnswer: true,
  cancelled: true,
  undelivered: true,
  closed: true,
  tooLarge: true,
  unreadable: true,
  badResult: true,
  badArguments: true,
  badStructuredContent: true,
  noStructuredContent: true,
  unusableSchema: true,
  notOffered: true,
  noSharedRevision: true,
  revisionRefused: true,
  said: true,
};

afterEach(() => act(() => applyLanguage("en")));

describe("why a request to a server came to nothing", () => {
  it("has a sample of every kind", () => {
    expect(new Set(failures.map((f) => f.kind))).toEqual(new Set(Object.keys(KINDS)));
  });

  it("reads in Chinese, the server's, the system's and the checker's words as they came", () => {
    act(() => applyLanguage("zh-CN"));
    const of = (kind: RequestFailure["kind"]) => requestFailureText(failures.find((f) => f.kind === kind)!);
    expect(of("serverError")).toBe("服务器对 tools/call 返回了错误：Unknown tool: nope（代码 -32602）");
    expect(of("noAnswer")).toBe("tools/call 在 30.0 秒内没有回应");
    expect(of("cancelled")).toBe("tools/call 已取消");
    expect(of("undelivered")).toBe("tools/call 无法送达：无法连接到 http://127.0.0.1:9/mcp：Connection refused");
    expect(of("closed")).toBe("连接已关闭：服务器已退出（exit status: 1）；标准错误输出的最后一行：panic: out of memory");
    expect(of("tooLarge")).toBe("无法读取服务器对 tools/call 的回应：消息过大，至少 70000000 字节，超过上限 67108864");
    expect(of("unreadable")).toBe("无法读取服务器对 tools/call 的回应：not JSON: expected value at line 1 column 1");
    expect(of("badResult")).toBe("服务器对 tools/list 的回应无效：missing field `tools`");
    expect(of("badArguments")).toBe('delete_note 的参数不符合它的输入模式：/text: 42 is not of type "string"');
    expect(of("badStructuredContent")).toBe('get_weather 的结构化内容不符合它的输出模式：/text: 42 is not of type "string"');
    expect(of("noStructuredContent")).toBe("get_weather 声明了输出模式，但它的结果没有结构化内容");
    expect(of("unusableSchema")).toBe('get_weather 的输出模式无法使用："type": 7 is not valid');
    expect(of("notOffered")).toBe("服务器不提供 prompts");
    expect(of("noSharedRevision")).toBe("服务器不支持本客户端支持的任何协议版本（它支持 2024-10-07）");
    expect(of("revisionRefused")).toBe("服务器拒绝了 tools/list：它不支持协议版本 2026-07-28（它支持 2025-06-18）");
  });
});

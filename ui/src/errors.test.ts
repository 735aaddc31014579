import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandError } from "./bindings";
import { errorMessage, TOLD } from "./errors";
import { applyLanguage } from "./i18n";
import samples from "./testing/told.json";

/** One real error of each kind the host tells, as it sends them (`src-tauri/told.rs`). */
const told = samples as CommandError[];

afterEach(() => act(() => applyLanguage("en")));

describe("the host's errors", () => {
  it("read in English exactly as the host writes them, every kind of them", () => {
    expect(new Set(told.map((e) => e.told?.kind))).toEqual(new Set(Object.keys(TOLD)));
    for (const error of told) expect(errorMessage(error), error.told?.kind).toBe(error.message);
  });

  it("read in Chinese, what they name as it was named", () => {
    act(() => applyLanguage("zh-CN"));
    const of = (kind: string) => errorMessage(told.find((e) => e.told?.kind === kind));
    expect(of("serverTaken")).toBe("名为“demo”的服务器已存在");
    expect(of("notPending")).toBe("请求 1234 已不再等待处理");
    expect(of("duplicate")).toBe("请求头“X-Key”出现了两次");
    expect(of("noFile")).toBe("请输入 ID 令牌文件的完整路径");
    expect(of("toolDisabled")).toBe("demo 的 delete_note 已关闭；请在服务器设置中开启后再使用");
    expect(of("request")).toBe("服务器对 tools/call 返回了错误：Unknown tool: nope（代码 -32602）");
    expect(of("callDenied")).toBe("对 delete_note 的调用被拒绝（超时）");
    expect(of("provider")).toBe("提供方拒绝了 API 密钥（HTTP 401）：invalid x-api-key");
    expect(of("badPrice")).toBe("价格是每百万词元的美元数，0 或以上");
    expect(of("profileUnnamed")).toBe("配置针对某个模型：请填写模型名称");
    const says = (kind: string) => told.filter((e) => e.told?.kind === kind).map(errorMessage);
    const install = (kind: string) => told.filter((e) => e.told?.kind === "install" && e.told.install.kind === kind).map(errorMessage);
    expect(["noSuchWay", "unsupported", "localHttp", "badUrl", "twice", "badName"].flatMap(install)).toEqual([
      "该条目没有第 3 个包",
      "该条目没有第 1 个远程地址",
      "Switchboard 不运行 nuget 包；请选择其他包或远程地址",
      "这个包以本地 streamable-http 服务器运行，Switchboard 不会启动它",
      "远程地址“ftp://mcp.example”不是 http:// 或 https:// 地址",
      "该条目两次声明了 API_KEY",
      "该条目声明了无效的请求头名称“X Key”",
      "该条目声明了无效的环境变量名称“1KEY”",
    ]);
    expect(says("skill")).toEqual([
      "skill://pdf/extra.py 不在技能的清单中",
      "skill://pdf/SKILL.md 有 1310 字节，而清单写的是 1200",
      "skill://pdf/SKILL.md 与清单中的摘要不符",
      'skill://pdf/SKILL.md 的前置元数据与服务器列出的不一致：its name is "pdf-tools", not "pdf"',
      "skill://pdf/SKILL.md 没有内容",
    ]);
    expect(["store", "noConversation", "conversationChanged", "conversationsNotKept", "noTask"].flatMap(says)).toEqual([
      "位于 /home/ada/.local/share/switchboard/audit.sqlite 的审计记录出错：database is locked",
      "无法读取位于 /home/ada/.local/share/switchboard/conversations.sqlite 的对话（file is not a database），也无法将其移开：permission denied",
      "无法让位于 /home/ada/.local/share/switchboard/tasks.sqlite 的任务只归其所有者：permission denied",
      "对话的一次调用没有完成：the app is stopping",
      "任务的一次调用没有完成：the app is stopping",
      "审计记录的一次调用没有完成：its writer stopped",
      "没有对话 7",
      "对话 7 中没有这些消息：它在此期间已被修改",
      "对话不会被保存",
      "没有任务 3",
    ]);
    expect(says("config")).toEqual([
      "无法写入 /home/ada/.config/switchboard/config.json：no storage space",
      "/home/ada/.config/switchboard/config.json 的写入没有完成：the app is stopping",
    ]);
    expect(says("link")).toEqual([
      '"htp//example" 不是网址：relative URL without a base',
      "只打开 http 和 https 链接，不打开 file: 链接",
      "主机前带有用户名或密码的链接不会被打开：它看起来是一个网站，实际去往另一个",
    ]);
    expect(says("view")).toEqual([
      "https://board.example/main.html 不是视图：视图的 URI 以 ui:// 开头",
      "服务器的 ui://board/main.html 类型为 text/plain，而不是 text/html;profile=mcp-app",
      "服务器的 ui://board/main.html 没有内容",
      "服务器的 ui://board/main.html 有 9000000 字节，超过视图的上限（5242880）",
      "服务器的 ui://board/main.html 不是文本（它的字节不是 UTF-8，也不是 base64）",
      "ui://board/logo.png 无法保存：它的 blob 不是 base64",
    ]);
    expect(says("stepsInBrowser")).toEqual([
      "payments 需要你先在浏览器中完成页面，再进行这次调用：完成后请再试一次",
      "payments 需要你先在浏览器中完成页面，再进行这次调用：完成后请再试一次",
      "payments 需要你先在浏览器中完成页面，再进行这次调用，但你没有打开；调用没有进行",
    ]);
    const keyring = told.filter((e) => e.told?.kind === "keyring").map(errorMessage);
    expect(keyring).toEqual([
      "密钥环不可用：The name org.freedesktop.secrets was not provided by any .service files",
      '密钥环拒绝保存机密 "demo/env/API_KEY"：the collection is locked',
      '密钥环拒绝读取机密 "provider/local/api-key"：the collection is locked',
      '密钥环拒绝删除机密 "agent/Cursor/token"：the collection is locked',
    ]);
    expect(of("signIn")).toContain("授权服务器拒绝了：access_denied");
    expect(install("badFormat")[0]).toBe("请求头 Authorization 中的 token 必须是 number，而不是“ten”");
    expect(install("missing")[0]).toBe("环境变量 WEATHER_API_KEY 需要填写");
    expect(of("brokenConfig")).toBe(
      "配置文件需要先修正：/home/ada/.config/switchboard/config.json 不是有效的配置：expected `,` or `}`（第 3 行，第 7 列）；文件保持原样",
    );
  });

  it("in other words than the host's come as they came, in either language", () => {
    const refused: CommandError = { code: "server", message: "Method not found", told: null };
    expect(errorMessage(refused)).toBe("Method not found");
    act(() => applyLanguage("zh-CN"));
    expect(errorMessage(refused)).toBe("Method not found");
    expect(errorMessage(new Error("offline"))).toBe("offline");
  });
});

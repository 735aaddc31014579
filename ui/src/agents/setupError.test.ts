import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandError } from "../bindings";
import { errorMessage } from "../errors";
import { applyLanguage } from "../i18n";
import samples from "../testing/told.json";

/** One of each way an app's configuration is not changed, as the host tells them (`src-tauri/told.rs`). */
const refused = (samples as CommandError[]).filter((e) => e.told?.kind === "agentSetup");

afterEach(() => act(() => applyLanguage("en")));

describe("why an app's configuration was not changed for an agent", () => {
  it("reads in Chinese, the paths, the parser's and the system's words as they came", () => {
    act(() => applyLanguage("zh-CN"));
    expect(refused.map(errorMessage)).toEqual([
      "/home/ada/.cursor/mcp.json 无法修改：expected `,` or `}`（第 4 行，第 2 列）；请先修正或删除它（文件保持原样）",
      "/home/ada/.cursor/mcp.json 无法修改：它的顶层不是 JSON 对象；请先修正或删除它（文件保持原样）",
      '/home/ada/.cursor/mcp.json 无法修改：它的 "mcpServers" 不是 JSON 对象；请先修正或删除它（文件保持原样）',
      'Cursor 已经以 "Cursor" 的身份连接 Switchboard：/home/ada/.cursor/mcp.json 中已有这一项；无需写入',
      "/home/ada/.cursor/mcp.json 在显示改动之后被修改过；什么也没有写入：请重新查看改动",
      "无法读取 /home/ada/.cursor/mcp.json：Permission denied (os error 13)",
      "无法写入 /home/ada/.cursor/mcp.json：No space left on device (os error 28)；文件保持原样",
      "没有主文件夹，无法找到这些应用的配置",
      "改动没有完成：task 7 panicked",
    ]);
  });
});

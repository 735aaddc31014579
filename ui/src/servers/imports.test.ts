import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandError, ImportError, ImportWarning, Skipped } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/reasons.json";
import told from "../testing/told.json";
import { importErrorText, importWarningText, skippedText } from "./imports";

/** What an import warns of and why it skips a server, as the host words them (`src-tauri/told.rs`). */
const warnings = samples.importWarnings as { text: string; warning: ImportWarning }[];
const skipped = samples.skipped as { text: string; reason: Skipped }[];

afterEach(() => act(() => applyLanguage("en")));

describe("what an import warns of and skips", () => {
  it("reads in Chinese, the file's own words as they are", () => {
    act(() => applyLanguage("zh-CN"));
    expect(warnings.map(({ warning }) => importWarningText(warning))).toEqual([
      "服务器 \"notes\"：不导入 `trusted`；如果你信任这个服务器，请在它的设置中将其标为受信任",
      '服务器 "linear"：设置 `autoApprove`（["x"]）会保留，但 Switchboard 不使用它',
      "服务器 \"a\"：`${input:…}` 只在环境变量和请求头中填入；其他位置按原样保留",
      '服务器 "s"：环境变量 "KEY"（"${input:k}-${env:USER}"）混用了 `${input:…}` 和 `${env:…}`，不会导入；请在服务器设置中添加它',
    ]);
    expect(skipped.map(({ reason }) => skippedText(reason))).toEqual([
      "未选中",
      '已有名为 "github" 的服务器',
      '文件中的另一个服务器将以 "twin" 导入',
    ]);
  });

  it("says why a file cannot be imported, in Chinese, the parser's words and the file's names as they came", () => {
    act(() => applyLanguage("zh-CN"));
    const errors = (told as CommandError[]).flatMap((e) => (e.told?.kind === "import" ? [e.told.import as ImportError] : []));
    expect(errors.map(importErrorText)).toEqual([
      "不是有效的 JSON：expected `:` at line 3 column 9",
      "没有找到服务器：应有一个 `mcpServers` 对象",
      "不是 Switchboard 能导入的配置：应有一个 `mcpServers` 对象（Claude Desktop、Cursor）或 `servers` 对象（VS Code）",
      '服务器 "github" 无法导入：it has neither a command nor a url',
      '服务器 "github" 需要填写 "github_token"',
    ]);
  });
});

import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { FileNotice } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/reasons.json";
import { fileNoticeText } from "./fileNotices";

/** Each notice of the host about a file it keeps (`src-tauri/told.rs`). */
const notices = samples.fileNotices.map(({ notice }) => notice as FileNotice);

afterEach(() => act(() => applyLanguage("en")));

describe("what the host did about a file it keeps", () => {
  it("reads in Chinese, the paths and SQLite's words as they came", () => {
    act(() => applyLanguage("zh-CN"));
    expect(notices.map(fileNoticeText)).toEqual([
      "无法读取位于 /home/ada/.local/share/switchboard/audit.sqlite 的审计记录（file is not a database）：已将其移至 /home/ada/.local/share/switchboard/audit.sqlite.corrupt-1764400000，并新建了一份",
      "无法读取位于 /home/ada/.local/share/switchboard/conversations.sqlite 的对话（file is not a database）：已将其移至 /home/ada/.local/share/switchboard/conversations.sqlite.corrupt-1764400000，并新建了文件",
      "无法读取位于 /home/ada/.local/share/switchboard/tasks.sqlite 的任务（file is not a database）：已将其移至 /home/ada/.local/share/switchboard/tasks.sqlite.corrupt-1764400000，并新建了文件",
      "the conversations file could not be opened: disk I/O error；无法保存对话",
      "the tasks file could not be opened: disk I/O error；无法保存任务",
      '设置 auditRetentionDays 必须是整数（0 表示不限），而不是 "a month"；审计记录将保留 90 天，最多 100 MB',
    ]);
  });
});

import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Pending_Serialize as Pending } from "../bindings";
import { ApprovalsContext } from "../host/approvalsContext";
import { applyLanguage } from "../i18n";
import { ApprovalsView, summaryOf } from "./ApprovalsView";

afterEach(cleanup);

const base = { server: "files", deadlineMs: Number.POSITIVE_INFINITY, forward: false, during: [] };
const asked = (id: number, question: Pending["question"]): Pending => ({ id, ...base, question });

const pending: Pending[] = [
  asked(1, { kind: "tool_call", tool: "delete_file", arguments: {}, annotations: null, askedBy: { by: "person" } }),
  asked(2, { kind: "read", read: { kind: "resource", uri: "file:///notes.md" }, askedBy: { by: "agent", name: "Claude Code" } }),
  asked(3, { kind: "read", read: { kind: "resource", uri: "file:///a.md" }, askedBy: { by: "person" } }),
  asked(4, { kind: "sampling", params: { messages: [], maxTokens: 10 } }),
  asked(5, { kind: "elicitation", params: { message: "Your email, please", requestedSchema: { type: "object", properties: {} } } }),
  asked(6, { kind: "roots" }),
  asked(7, { kind: "agent_roots", agent: "Claude Code", folders: ["/src"], servers: ["files", "notes"] }),
];

function view(list: Pending[]) {
  return render(
    <ApprovalsContext.Provider value={{ pending: list, selectedId: null, select: vi.fn() }}>
      <ApprovalsView />
    </ApprovalsContext.Provider>,
  );
}

describe("ApprovalsView", () => {
  it("says what each request wants, in a line", () => {
    expect(pending.map(summaryOf)).toEqual([
      "call delete_file",
      "Claude Code reads file:///notes.md",
      "someone reads file:///a.md",
      "a reply from a model",
      "Your email, please",
      "which folders it may see",
      "its folders, offered to files, notes",
    ]);
  });

  it("says when nothing waits", () => {
    view([]);
    expect(screen.getByRole("heading", { name: "Nothing waits for you" })).toBeTruthy();
    expect(screen.getByText(/^When a server asks to run a tool, to sample a model/)).toBeTruthy();
  });
});

describe("ApprovalsView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("lists the waiting requests in Chinese, the servers' words as sent", () => {
    act(() => applyLanguage("zh-CN"));
    view(pending);
    const rows = within(screen.getByRole("list", { name: "等待处理的请求" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(rows).toEqual([
      "files · 工具调用调用 delete_file",
      "files · 读取Claude Code 读取 file:///notes.md",
      "files · 读取有人读取 file:///a.md",
      "files · 模型回复请求模型回复",
      "files · 提问Your email, please",
      "files · 文件夹它可以查看哪些文件夹",
      "files · 提供文件夹向 files、notes 提供它的文件夹",
    ]);
  });

  it("says in Chinese when nothing waits", () => {
    act(() => applyLanguage("zh-CN"));
    view([]);
    expect(screen.getByRole("heading", { name: "没有等待你处理的请求" })).toBeTruthy();
    expect(screen.getByText(/^当服务器请求运行工具/)).toBeTruthy();
  });
});

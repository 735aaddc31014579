import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StandingRule } from "../bindings";
import { applyLanguage, format } from "../i18n";
import { TrustReview } from "./TrustReview";

const rule = (over: Partial<StandingRule>): StandingRule => ({
  server: "files",
  tool: "read",
  agent: null,
  reads: false,
  allow: true,
  scope: "always",
  sinceMs: 1_700_000_000_000,
  uses: 3,
  holds: true,
  ...over,
});

describe("TrustReview", () => {
  afterEach(cleanup);

  it("lists each rule with its scope, uses and whether it holds, and revokes the one chosen", async () => {
    const onRevokeRule = vi.fn();
    render(
      <TrustReview
        rules={[
          rule({}),
          rule({ tool: null, allow: false, scope: "session", uses: 1 }),
          rule({ tool: "send", holds: false }),
          rule({ agent: "Claude Code" }),
          rule({ tool: null, reads: true, agent: "Claude Code" }),
        ]}
        sampling={[]}
        folders={[]}
        onRevokeRule={onRevokeRule}
        onRevokeSampling={() => {}}
        onRevokeFolders={() => {}}
      />,
    );
    const rows = screen.getAllByRole("row").slice(1);
    const cells = rows.map((row) => within(row).getAllByRole("cell").map((c) => c.textContent));
    expect(cells[0]?.slice(0, 4)).toEqual(["files", "read", "Allowed", "Always"]);
    expect(cells[0]?.[5]).toBe("3 times");
    expect(cells[1]?.slice(1, 4)).toEqual(["every tool", "Denied", "Until quit"]);
    expect(cells[1]?.[5]).toBe("once");
    expect(cells[2]?.[6]).toMatch(/changed since/);
    expect(cells[3]?.[1]).toBe("read (calls of Claude Code)");
    expect(cells[4]?.[1]).toBe("its resources and prompts (reads of Claude Code)");
    const revoked = () => onRevokeRule.mock.lastCall?.[0] as StandingRule;
    await userEvent.click(screen.getByRole("button", { name: "Revoke the rule for every tool of files" }));
    expect([revoked().tool, revoked().reads, revoked().agent]).toEqual([null, false, null]);
    await userEvent.click(screen.getByRole("button", { name: "Revoke the rule for send of files" }));
    expect([revoked().tool, revoked().agent]).toEqual(["send", null]);
    await userEvent.click(screen.getByRole("button", { name: "Revoke the rule for read of files for Claude Code" }));
    expect([revoked().tool, revoked().agent]).toEqual(["read", "Claude Code"]);
    await userEvent.click(screen.getByRole("button", { name: "Revoke the rule for reading of files for Claude Code" }));
    expect([revoked().reads, revoked().agent]).toEqual([true, "Claude Code"]);
    expect(screen.getByText("No server can see any of your folders.")).toBeTruthy();
  });

  it("lists shared folders by server and stops sharing them", async () => {
    const onRevokeFolders = vi.fn();
    render(
      <TrustReview
        rules={[]}
        sampling={[]}
        folders={[{ server: "git", folders: ["/home/me/project", "/home/me/notes"] }]}
        onRevokeRule={() => {}}
        onRevokeSampling={() => {}}
        onRevokeFolders={onRevokeFolders}
      />,
    );
    expect(screen.getByText(/every tool call a model or an agent makes, and every read of an agent, is asked about/)).toBeTruthy();
    expect(screen.getByText("/home/me/project")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Stop sharing with git" }));
    expect(onRevokeFolders).toHaveBeenCalledWith("git");
  });

  it("lists the servers whose sampling goes without review, and takes that back", async () => {
    const onRevokeSampling = vi.fn();
    render(
      <TrustReview
        rules={[]}
        sampling={[
          { server: "writer", sinceMs: 1_700_000_000_000, uses: 4, provider: "openai", model: "gpt-4o", holds: true },
          { server: "moved", sinceMs: 1_700_000_000_000, uses: 1, provider: "openai", model: "gpt-4o", holds: false },
          { server: "kept", sinceMs: 1_700_000_000_000, uses: 0, provider: null, model: null, holds: false },
        ]}
        folders={[]}
        onRevokeRule={() => {}}
        onRevokeSampling={onRevokeSampling}
        onRevokeFolders={() => {}}
      />,
    );
    const items = screen.getAllByRole("listitem").map((li) => li.textContent ?? "");
    expect(items[0]).toMatch(/writer: replies by gpt-4o \(openai\) go back unreviewed, since .*, 4 times/);
    expect(items[1]).toMatch(/once \(no longer holds: the server or its model changed/);
    expect(items[2]).toMatch(/kept: the model's replies go back .*\(no longer holds: no model was chosen/);
    await userEvent.click(screen.getByRole("button", { name: "Review sampling of writer again" }));
    expect(onRevokeSampling).toHaveBeenCalledWith("writer");
  });
});

describe("TrustReview in Chinese", () => {
  afterEach(() => {
    cleanup();
    act(() => applyLanguage("en"));
  });

  it("names the rules, their uses and the folders shared in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    const onRevokeRule = vi.fn();
    render(
      <TrustReview
        rules={[rule({}), rule({ tool: null, allow: false, scope: "session", uses: 1, holds: false }), rule({ reads: true, agent: "Claude Code" })]}
        sampling={[{ server: "writer", sinceMs: 1_700_000_000_000, uses: 4, provider: "openai", model: "gpt-4o", holds: true }]}
        folders={[{ server: "git", folders: ["/home/me/project"] }]}
        onRevokeRule={onRevokeRule}
        onRevokeSampling={() => {}}
        onRevokeFolders={() => {}}
      />,
    );
    expect(screen.getByRole("heading", { name: "长期规则" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "免审阅采样" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "共享文件夹" })).toBeTruthy();
    const table = screen.getByRole("table", { name: "无需询问你即可决定的调用" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "服务器",
      "工具",
      "决定",
      "范围",
      "设立时间",
      "使用次数",
      "有效",
      "",
    ]);
    const cells = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => within(row).getAllByRole("cell").map((c) => c.textContent));
    expect(cells[0]?.slice(0, 4)).toEqual(["files", "read", "允许", "始终"]);
    // The date as Chinese writes it (the day depends on the time zone).
    expect(cells[0]?.[4]).toBe(format.dateTime(1_700_000_000_000));
    expect(cells[0]?.[4]).toMatch(/^2023年11月1[45]日 \d\d:\d\d:\d\d$/);
    expect(cells[0]?.[5]).toBe("3 次");
    expect(cells[1]?.slice(1, 4)).toEqual(["所有工具", "拒绝", "直到退出"]);
    expect(cells[1]?.[5]).toBe("1 次");
    expect(cells[1]?.[6]).toBe("否：此后已有更改，将会询问你");
    expect(cells[2]?.[1]).toBe("其资源和提示词 （Claude Code 的读取）");
    await userEvent.click(screen.getByRole("button", { name: "撤销 files 的“所有工具”规则" }));
    expect(onRevokeRule).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: "撤销 Claude Code 在 files 上的“读取”规则" }).textContent).toBe("撤销");
    const [sampling] = within(screen.getByRole("region", { name: "免审阅采样" })).getAllByRole("listitem");
    expect(sampling?.textContent).toMatch(/^writer：gpt-4o（openai）的回复不经审阅直接发回，自 .* 起，已使用 4 次 撤销$/);
    expect(screen.getByRole("button", { name: "撤销 writer 的免审阅采样" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "停止与 git 共享" })).toBeTruthy();
  });
});

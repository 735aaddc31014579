import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StandingRule } from "../bindings";
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

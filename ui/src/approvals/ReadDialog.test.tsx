import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { ReadDialog, type ReadRequest } from "./ReadDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const request: ReadRequest = {
  id: 9,
  server: "notes",
  deadlineMs: Date.now() + 5 * 60_000,
  read: { kind: "resource", uri: "notes://private/diary" },
  askedBy: { by: "agent", name: "Claude Code" },
};

function setup(overrides: Partial<ReadRequest> = {}) {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(<ReadDialog request={{ ...request, ...overrides }} onAnswer={onAnswer} />);
  waitOutGuard();
  return { onAnswer, user };
}

describe("ReadDialog", () => {
  it("says which agent reads what of which server", () => {
    setup();
    const dialog = screen.getByRole("dialog", { name: "Claude Code wants to read notes://private/diary from notes" });
    expect(within(dialog).getByRole("timer").textContent).toMatch(/\(denied\)$/);
  });

  it("names the conversation of a model that reads", () => {
    setup({ askedBy: { by: "model", conversation: "4", title: "Trip plans" } });
    screen.getByRole("dialog", { name: "A model in conversation “Trip plans” wants to read notes://private/diary from notes" });
    screen.getByRole("group", { name: "Remember a choice to allow the model's reads of this server" });
  });

  it("names a prompt with the arguments it is filled with, and what was typed for suggestions", () => {
    setup({ read: { kind: "prompt", name: "greet", arguments: { name: "Grace" } } });
    screen.getByRole("dialog", { name: "Claude Code wants the prompt greet from notes" });
    const detail = screen.getByRole("definition");
    expect(detail.textContent).toBe("Grace");
    cleanup();
    setup({ read: { kind: "completion", of: "greet", argument: "name", value: "Gr" } });
    screen.getByRole("dialog", { name: "Claude Code wants suggestions for name of greet from notes" });
    expect(screen.getByRole("definition").textContent).toBe("Gr");
  });

  it("asks about a model's use of a skill as it is, allowed once or always as it is", async () => {
    const { onAnswer, user } = setup({
      askedBy: { by: "model", conversation: "4", title: "Tour" },
      read: { kind: "skill", name: "demo-tour", uri: "skill://demo-tour/SKILL.md", digest: "sha256:ab12" },
    });
    screen.getByRole("dialog", { name: "A model in conversation “Tour” wants to use the skill demo-tour from notes" });
    expect(screen.getAllByRole("definition").map((d) => d.textContent)).toEqual(["skill://demo-tour/SKILL.md", "sha256:ab12"]);
    expect(screen.queryByRole("group", { name: /Remember a choice/ })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Always allow this skill as it is" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "tool_always" });
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "once" });
  });

  it("allows once, for the server until quit, or always; denies", async () => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "once" });
    await user.click(screen.getByRole("button", { name: "Allow reading this server until quit" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "server_for_session" });
    await user.click(screen.getByRole("radio", { name: /Always/ }));
    await user.click(screen.getByRole("button", { name: "Always allow reading this server" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: true, remember: "server_always" });
    await user.click(screen.getByRole("button", { name: "Deny" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ allow: false, remember: "once" });
  });

  it("says what changed since the person allowed this agent's reads", () => {
    setup({ changed: { server: true, allowedMs: 1_700_000_000_000 } });
    screen.getByRole("alert", { name: "Changed since you allowed it" });
  });
});

import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentRootsDialog } from "./AgentRootsDialog";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup() {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(
    <AgentRootsDialog
      request={{
        id: 4,
        server: "Claude Code",
        deadlineMs: Date.now() + 90_000,
        folders: ["/home/ada/project", "/home/ada/secrets"],
        servers: ["files", "everything"],
      }}
      onBrowse={() => Promise.resolve(null)}
      onAnswer={onAnswer}
    />,
  );
  waitOutGuard();
  return { onAnswer, user };
}

describe("an agent's offer of its folders", () => {
  it("names the agent and its servers, and shares only the folders the person keeps", async () => {
    const { onAnswer, user } = setup();
    expect(screen.getByRole("dialog", { name: "Claude Code offers these folders: expose them to its servers?" })).toBeTruthy();
    expect(screen.getByText(/\(files, everything\)/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Remove /home/ada/secrets" }));
    await user.click(screen.getByRole("button", { name: "Share these folders" }));
    expect(onAnswer).toHaveBeenCalledWith(["/home/ada/project"]);
  });

  it("shares nothing when the person refuses", async () => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("button", { name: "Share nothing" }));
    expect(onAnswer).toHaveBeenCalledWith([]);
  });
});

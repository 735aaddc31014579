import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
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

describe("an agent's offer of its folders, in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names the agent and its servers in a Chinese sentence", async () => {
    act(() => applyLanguage("zh-CN"));
    const { onAnswer, user } = setup();
    screen.getByRole("dialog", { name: "Claude Code 提供了这些文件夹：要向它使用的服务器公开吗？" });
    screen.getByText(
      "由智能体 Claude Code 提供：它使用的服务器（files、everything）可以读取这里保留的文件夹中的内容。请移除它们不需要的文件夹。",
    );
    await user.click(screen.getByRole("button", { name: "移除 /home/ada/secrets" }));
    await user.click(screen.getByRole("button", { name: "共享这些文件夹" }));
    expect(onAnswer).toHaveBeenCalledWith(["/home/ada/project"]);
  });
});

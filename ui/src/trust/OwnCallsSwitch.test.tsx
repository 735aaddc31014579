import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { applyLanguage } from "../i18n";
import { OwnCallsSwitch } from "./OwnCallsSwitch";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({
    confirmsOwnDestructiveCalls: vi.fn(() => Promise.resolve(true)),
    setConfirmOwnDestructiveCalls: vi.fn(() => Promise.resolve(null)),
  }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  act(() => applyLanguage("en"));
});

describe("the switch for the person's own calls", () => {
  it("asks whether to confirm tools that may destroy, and turns that off", async () => {
    render(<OwnCallsSwitch />);
    const box = await screen.findByRole("checkbox", { name: "Ask me before running a tool I call myself that may destroy data" });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole("heading", { name: "Your own calls" })).toBeTruthy();
    await userEvent.click(box);
    expect(commands.setConfirmOwnDestructiveCalls).toHaveBeenCalledWith(false);
  });

  it("speaks Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<OwnCallsSwitch />);
    expect(await screen.findByRole("heading", { name: "你自己的调用" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "运行我自己调用的、可能破坏数据的工具之前，先询问我" })).toBeTruthy();
    expect(screen.getByText(/你在“探索”中调用的工具会立即运行/)).toBeTruthy();
  });
});

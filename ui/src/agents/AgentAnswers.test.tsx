import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { applyLanguage } from "../i18n";
import { AgentAnswers } from "./AgentAnswers";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({ agentAnswers: vi.fn(), setAgentAnswers: vi.fn() }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const box = (name: RegExp) => screen.getByRole("checkbox", { name }) as HTMLInputElement;

describe("what an agent may answer for the person", () => {
  it("lets the agent answer sampling and keeps forms for the person, as the host then holds it", async () => {
    let held = { sampling: false, elicitation: false };
    vi.mocked(commands.agentAnswers).mockImplementation(() => Promise.resolve(held));
    vi.mocked(commands.setAgentAnswers).mockImplementation((_name, answers) => {
      held = { ...held, ...answers };
      return Promise.resolve(null);
    });
    render(<AgentAnswers name="Claude Code" />);
    expect(await screen.findByText("What Claude Code may answer for you")).toBeTruthy();
    expect(box(/Sampling requests/).checked).toBe(false);
    await userEvent.click(box(/Sampling requests/));
    expect(commands.setAgentAnswers).toHaveBeenCalledWith("Claude Code", { sampling: true, elicitation: false });
    await waitFor(() => expect(box(/Sampling requests/).checked).toBe(true));
    expect(box(/Forms of the servers/).checked).toBe(false);
  });

  it("keeps a refusal in view and the switch as the host holds it", async () => {
    vi.mocked(commands.agentAnswers).mockResolvedValue({ sampling: true, elicitation: false });
    vi.mocked(commands.setAgentAnswers).mockRejectedValue({
      code: "broken_config",
      message: "the configuration file must be fixed first",
    });
    render(<AgentAnswers name="Cursor" />);
    await userEvent.click(await screen.findByRole("checkbox", { name: /Sampling requests/ }));
    expect((await screen.findByRole("alert")).textContent).toContain("must be fixed first");
    await waitFor(() => expect(box(/Sampling requests/).checked).toBe(true));
  });
});

describe("what an agent may answer, in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names each kind of answer in Chinese and the agent as it is called", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.agentAnswers).mockResolvedValue({ sampling: false, elicitation: true });
    render(<AgentAnswers name="Claude Code" />);
    expect(await screen.findByRole("group", { name: "Claude Code 可以替你回答的请求" })).toBeTruthy();
    expect(box(/采样请求/).checked).toBe(false);
    expect(box(/表单/).checked).toBe(true);
    expect(screen.getByText(/否则会询问你。$/)).toBeTruthy();
  });
});

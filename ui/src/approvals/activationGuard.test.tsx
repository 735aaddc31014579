import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi, type Mock } from "vitest";
import type { ReactElement } from "react";
import { ACTIVATION_DELAY_MS } from "./activationGuard";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { ToolCallDialog, type ToolCallRequest } from "./ToolCallDialog";
import { ReadDialog } from "./ReadDialog";
import { SamplingDialog } from "./SamplingDialog";
import { RootsDialog } from "./RootsDialog";
import { ElicitationFormDialog } from "./ElicitationFormDialog";
import { UrlElicitationDialog } from "./UrlElicitationDialog";
import type { CreateMessageRequestParams, ElicitRequestFormParams } from "../mcp/schema";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const deadlineMs = () => Date.now() + 5 * 60_000;

interface Case {
  /** The button that says yes. */
  accept: string;
  /** The dialog showing a request, and showing another one (or the same one changed). */
  dialog(onAnswer: Mock, changed: boolean): ReactElement;
  /** Whether the dialog went ahead. */
  accepted(onAnswer: Mock): boolean;
}

const toolCall = (changed: boolean): ToolCallRequest => ({
  id: 7,
  server: "files",
  deadlineMs: deadlineMs(),
  tool: "delete_file",
  arguments: { path: changed ? "/home/ada" : "/tmp/a.txt" },
  annotations: null,
});

const sampling = (changed: boolean): CreateMessageRequestParams => ({
  messages: [{ role: "user", content: { type: "text", text: changed ? "Send me the keys" : "Hello?" } }],
  maxTokens: 100,
});

const form = (changed: boolean): ElicitRequestFormParams => ({
  mode: "form",
  message: changed ? "Your card number, please" : "Your name, please",
  requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } } },
});

const CASES: Record<string, Case> = {
  "a tool call": {
    accept: "Allow once",
    dialog: (onAnswer, changed) => <ToolCallDialog request={toolCall(changed)} onAnswer={onAnswer} />,
    accepted: (onAnswer) => onAnswer.mock.calls.some(([answer]) => answer.allow === true),
  },
  "an agent's read": {
    accept: "Allow once",
    dialog: (onAnswer, changed) => (
      <ReadDialog
        request={{
          id: 8,
          server: "notes",
          deadlineMs: deadlineMs(),
          read: { kind: "resource", uri: changed ? "notes://private/diary" : "notes://readme" },
          askedBy: { by: "agent", name: "Claude Code" },
        }}
        onAnswer={onAnswer}
      />
    ),
    accepted: (onAnswer) => onAnswer.mock.calls.some(([answer]) => answer.allow === true),
  },
  "a sampling request": {
    accept: "Next: write the reply",
    dialog: (onAnswer, changed) => (
      <SamplingDialog
        request={{ id: 9, server: "research", deadlineMs: deadlineMs(), params: sampling(changed) }}
        onAnswer={onAnswer}
        onDecline={() => {}}
      />
    ),
    accepted: () => screen.queryByText("Step 2 of 3: Write the reply") !== null,
  },
  "a roots request": {
    accept: "Share these folders",
    dialog: (onAnswer, changed) => (
      <RootsDialog
        request={{ id: changed ? 5 : 4, server: "indexer", deadlineMs: deadlineMs() }}
        initial={["/home/ada/notes"]}
        onBrowse={() => Promise.resolve(null)}
        onAnswer={onAnswer}
      />
    ),
    accepted: (onAnswer) => onAnswer.mock.calls.some(([folders]) => folders.length > 0),
  },
  "a form": {
    accept: "Submit",
    dialog: (onAnswer, changed) => (
      <ElicitationFormDialog
        request={{ id: 3, server: "forms", deadlineMs: deadlineMs(), params: form(changed) }}
        onAnswer={onAnswer}
      />
    ),
    accepted: (onAnswer) => onAnswer.mock.calls.some(([result]) => result.action === "accept"),
  },
  "a web page to open": {
    accept: "Open in browser",
    dialog: (onAnswer, changed) => (
      <UrlElicitationDialog
        request={{
          id: 2,
          server: "billing",
          deadlineMs: deadlineMs(),
          params: {
            mode: "url",
            elicitationId: "e-1",
            url: changed ? "https://pay.example.com/other" : "https://pay.example.com/checkout",
            message: "Pay here",
          },
        }}
        onAnswer={onAnswer}
      />
    ),
    accepted: (onAnswer) => onAnswer.mock.calls.some(([action]) => action === "accept"),
  },
};

function show(name: string) {
  const c = CASES[name]!;
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  const { rerender } = render(c.dialog(onAnswer, false));
  return {
    user,
    button: () => screen.getByRole("button", { name: c.accept }),
    dialog: () => screen.getByRole("dialog"),
    accepted: () => c.accepted(onAnswer),
    change: () => rerender(c.dialog(onAnswer, true)),
  };
}

describe.each(Object.keys(CASES))("a dialog for %s, which opens on its own", (name) => {
  it("does not start with the focus on its accepting button", () => {
    const { button, dialog } = show(name);
    expect(dialog().contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(button());
    waitOutGuard();
    expect(document.activeElement).not.toBe(button());
  });

  it("ignores a click and Enter for a moment, then takes them", async () => {
    const { user, button, dialog, accepted } = show(name);
    expect(button().hasAttribute("disabled")).toBe(true);
    expect(button().hasAttribute("data-arming")).toBe(true);
    await user.click(button());
    await user.keyboard("{Enter}");
    act(() => dialog().focus());
    await user.keyboard("{Enter}");
    await user.keyboard(" ");
    waitOutGuard(ACTIVATION_DELAY_MS - 50);
    await user.click(button());
    await user.keyboard("{Enter}");
    expect(accepted()).toBe(false);

    waitOutGuard(50);
    expect(button().hasAttribute("disabled")).toBe(false);
    expect(button().hasAttribute("data-arming")).toBe(false);
    await user.click(button());
    expect(accepted()).toBe(true);
  });

  it("accepts on Enter once the moment has passed", async () => {
    const { user, dialog, accepted } = show(name);
    waitOutGuard();
    act(() => dialog().focus());
    await user.keyboard("{Enter}");
    expect(accepted()).toBe(true);
  });

  it("ignores a click again for a moment when what it shows changes", async () => {
    const { user, button, dialog, accepted, change } = show(name);
    waitOutGuard();
    expect(button().hasAttribute("disabled")).toBe(false);
    change();
    expect(button().hasAttribute("disabled")).toBe(true);
    await user.click(button());
    act(() => dialog().focus());
    await user.keyboard("{Enter}");
    expect(accepted()).toBe(false);
    waitOutGuard();
    await user.click(button());
    expect(accepted()).toBe(true);
  });

  it("ignores a click again for a moment when the window comes back to the front", async () => {
    const { user, button, dialog, accepted } = show(name);
    waitOutGuard();
    act(() => button().focus());
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    expect(button().hasAttribute("disabled")).toBe(true);
    // The focus leaves the disabled button for the dialog, where Esc and Tab still work.
    expect(document.activeElement).toBe(dialog());
    await user.click(button());
    expect(accepted()).toBe(false);
    waitOutGuard();
    await user.click(button());
    expect(accepted()).toBe(true);
  });
});

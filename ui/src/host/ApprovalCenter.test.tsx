import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type Pending_Serialize as Pending } from "../bindings";
import { ApprovalCenter } from "./ApprovalCenter";
import { userOnFakeClock, waitOutGuard } from "../approvals/guardTesting";

vi.mock("../bindings", () => ({
  commands: {
    answerToolCall: vi.fn(),
    answerElicitation: vi.fn(),
    serverRoots: vi.fn(),
    pickFolder: vi.fn(),
    answerRoots: vi.fn(),
  },
  events: {
    hostUpdate: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const soon = () => Date.now() + 60_000;

const toolCall = (id: number, server: string, tool: string): Pending => ({
  id,
  server,
  deadlineMs: soon(),
  forward: true,
  during: [],
  question: { kind: "tool_call", tool, arguments: { text: "hi" }, annotations: null, askedBy: { by: "person" } },
});

describe("the approval center", () => {
  it("shows the oldest request unless the person picked another, and answers it", async () => {
    vi.mocked(commands.answerToolCall).mockResolvedValue(null);
    const user = userOnFakeClock();
    const pending = [toolCall(1, "alpha", "first_tool"), toolCall(2, "beta", "second_tool")];
    const { rerender } = render(<ApprovalCenter pending={pending} selectedId={null} />);
    expect(screen.getByRole("dialog").textContent).toContain("first_tool");

    rerender(<ApprovalCenter pending={pending} selectedId={2} />);
    expect(screen.getByRole("dialog").textContent).toContain("second_tool");
    waitOutGuard();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(commands.answerToolCall).toHaveBeenCalledWith(2, "beta", true, { text: "hi" }, "once");
  });

  it("opens no dialog for a request that waits in the queue until the person picks it", async () => {
    vi.mocked(commands.serverRoots).mockResolvedValue([]);
    const waiting: Pending = { ...toolCall(4, "files", "unused"), forward: false, question: { kind: "roots" } };
    const { rerender } = render(<ApprovalCenter pending={[waiting]} selectedId={null} />);
    expect(screen.queryByRole("dialog")).toBeNull();
    rerender(<ApprovalCenter pending={[waiting, toolCall(5, "alpha", "asked_now")]} selectedId={null} />);
    expect(screen.getByRole("dialog").textContent).toContain("asked_now");
    rerender(<ApprovalCenter pending={[waiting]} selectedId={4} />);
    expect((await screen.findByRole("dialog")).textContent).toContain("files");
  });

  it("says why the host refused an answer, and keeps the request open", async () => {
    vi.mocked(commands.answerElicitation).mockRejectedValue({
      code: "invalid",
      message: "the answer does not fit the form: age: must be at least 1",
    });
    const form: Pending = {
      id: 7,
      server: "forms",
      deadlineMs: soon(),
      forward: true,
      during: [],
      question: {
        kind: "elicitation",
        params: { message: "Who are you?", requestedSchema: { type: "object", properties: {} } },
      },
    };
    const user = userOnFakeClock();
    render(<ApprovalCenter pending={[form]} selectedId={null} />);
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(commands.answerElicitation).toHaveBeenCalledWith(7, "forms", { action: "decline" });
    expect((await screen.findByText(/does not fit the form/)).getAttribute("role")).toBe("alert");
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("offers the folders already shared when a server asks for roots", async () => {
    vi.mocked(commands.serverRoots).mockResolvedValue(["/home/ada/project"]);
    vi.mocked(commands.answerRoots).mockResolvedValue(null);
    const roots: Pending = { id: 3, server: "files", deadlineMs: soon(), forward: true, during: [], question: { kind: "roots" } };
    const user = userOnFakeClock();
    render(<ApprovalCenter pending={[roots]} selectedId={null} />);
    expect(await screen.findByText("/home/ada/project")).toBeTruthy();
    waitOutGuard();
    await user.click(screen.getByRole("button", { name: "Share these folders" }));
    expect(commands.answerRoots).toHaveBeenCalledWith(3, "files", ["/home/ada/project"]);
  });

  it("holds back the clicks a request gets as it takes the place of an answered one", async () => {
    vi.mocked(commands.answerToolCall).mockClear().mockResolvedValue(null);
    const user = userOnFakeClock();
    const { rerender } = render(<ApprovalCenter pending={[toolCall(1, "alpha", "read_file")]} selectedId={null} />);
    waitOutGuard();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(commands.answerToolCall).toHaveBeenCalledTimes(1);

    // The next request appears right under the pointer: a second click must not allow it.
    rerender(<ApprovalCenter pending={[toolCall(2, "beta", "delete_everything")]} selectedId={null} />);
    expect(screen.getByRole("dialog").textContent).toContain("delete_everything");
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(commands.answerToolCall).toHaveBeenCalledTimes(1);
    waitOutGuard();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(commands.answerToolCall).toHaveBeenLastCalledWith(2, "beta", true, { text: "hi" }, "once");
  });

  it("names the calls a server was serving when it asked", async () => {
    vi.mocked(commands.serverRoots).mockResolvedValue([]);
    const roots: Pending = {
      ...toolCall(6, "files", "unused"),
      question: { kind: "roots" },
      during: [
        { origin: { by: "agent", name: "Claude Code" }, call: "search", read: null },
        { origin: { by: "person" }, call: "index", read: null },
        { origin: { by: "agent", name: "Cursor" }, call: "prompt plan", read: { kind: "prompt", name: "plan", arguments: {} } },
      ],
    };
    render(<ApprovalCenter pending={[roots]} selectedId={null} />);
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("While serving Claude Code’s call to search, your call to index and Cursor’s call to prompt plan.");
    const form: Pending = {
      ...toolCall(7, "notes", "unused"),
      question: { kind: "elicitation", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } },
      during: [{ origin: { by: "model", conversation: "3", title: "Plan the trip" }, call: "add", read: null }],
    };
    cleanup();
    render(<ApprovalCenter pending={[form]} selectedId={null} />);
    expect(screen.getByRole("dialog").textContent).toContain("While serving a model’s (conversation “Plan the trip”) call to add.");
  });
});

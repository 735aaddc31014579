import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type Pending_Serialize as Pending, type ProgressItem_Serialize as ProgressItem, type Update } from "../bindings";
import { ApprovalsContext } from "../host/approvalsContext";
import { applyLanguage } from "../i18n";
import { ActivityView } from "./ActivityView";

vi.mock("../bindings", () => ({
  commands: {
    callsInFlight: vi.fn(),
    cancelCall: vi.fn(() => Promise.resolve(true)),
    answerSampling: vi.fn(() => Promise.resolve(null)),
    answerElicitation: vi.fn(() => Promise.resolve(null)),
    audit: vi.fn(() => Promise.resolve([])),
  },
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn() } },
}));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.clearAllMocks();
});

const START = 1_000_000;

const call = (token: string, label: string, started: number, progress = 0, total: number | null = null): ProgressItem => ({
  token,
  server: "demo",
  label,
  progress,
  total,
  message: null,
  startedMs: started,
  read: null,
});

/** Renders the view with these requests waiting; returns a way to play the host's updates. */
function activity(pending: Pending[] = []) {
  const updates: Array<(event: { payload: Update }) => void> = [];
  vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
    updates.push(listener as (event: { payload: Update }) => void);
    return Promise.resolve(() => {});
  });
  vi.mocked(events.hostResync.listen).mockImplementation(() => Promise.resolve(() => {}));
  render(
    <ApprovalsContext.Provider value={{ pending, selectedId: null, select: () => {} }}>
      <ActivityView />
    </ApprovalsContext.Provider>,
  );
  return { update: (payload: Update) => act(() => updates.forEach((listen) => listen({ payload }))) };
}

const running = () => screen.getByRole("region", { name: "Running" });
const flush = () => act(async () => {});

describe("the calls under way", () => {
  it("shows the calls in flight when it opens, each with its elapsed time ticking and Cancel", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
    // Started before the view opened: one that never sends progress, one that counts.
    vi.mocked(commands.callsInFlight).mockResolvedValue([
      call("explorer-1", "ask_model", START - 5_000),
      call("chat-4-c1", "Count slowly", START - 2_000, 2, 10),
    ]);
    activity();
    await flush();

    const items = within(running()).getAllByRole("listitem");
    expect(items.map((li) => li.querySelector(".progress-label")?.textContent)).toEqual(["ask_model", "Count slowly"]);
    expect(items[0]!.textContent).toContain("5 s");
    expect(items[0]!.textContent).toContain("Waiting for progress");
    expect(items[1]!.textContent).toContain("2 of 10");

    act(() => vi.advanceTimersByTime(3_000));
    expect(items[0]!.textContent).toContain("8 s");

    fireEvent.click(within(running()).getByRole("button", { name: "Cancel ask_model" }));
    expect(commands.cancelCall).toHaveBeenCalledExactlyOnceWith("explorer-1");
  });

  it("adds the calls that start while it is open, and drops those that end", async () => {
    vi.mocked(commands.callsInFlight).mockResolvedValue([]);
    const host = activity();
    await flush();
    expect(running().textContent).toContain("No call is under way.");

    host.update({ kind: "progress", item: call("explorer-2", "echo", Date.now()) });
    expect(within(running()).getByRole("button", { name: "Cancel echo" })).toBeTruthy();
    host.update({ kind: "progress_ended", token: "explorer-2" });
    expect(running().textContent).toContain("No call is under way.");
  });

  it("keeps out a call that ended while the list was being fetched", async () => {
    let answer: (calls: ProgressItem[]) => void = () => {};
    vi.mocked(commands.callsInFlight).mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const host = activity();
    await flush();
    host.update({ kind: "progress_ended", token: "explorer-3" });
    await act(async () => answer([call("explorer-3", "echo", Date.now())]));
    expect(running().textContent).toContain("No call is under way.");
  });

  it("lists a sampling request waiting for the person, and Cancel declines it", async () => {
    vi.mocked(commands.callsInFlight).mockResolvedValue([]);
    const sampling: Pending = {
      id: 7,
      server: "demo",
      deadlineMs: Date.now() + 60_000,
      forward: true,
      during: [],
      question: { kind: "sampling", params: { messages: [], maxTokens: 100 } },
    };
    activity([sampling]);
    await flush();
    const item = within(running()).getByRole("listitem");
    expect(item.textContent).toContain("Asks for a model reply");
    expect(item.textContent).toContain("waits for you in Approvals");
    expect(item.textContent).not.toContain("Waiting for progress");
    expect(item.textContent).toContain("0 s");
    fireEvent.click(within(item).getByRole("button", { name: "Cancel Asks for a model reply" }));
    expect(commands.answerSampling).toHaveBeenCalledExactlyOnceWith(7, "demo", null);
  });
});

describe("the audit log", () => {
  it("asks the host to search once the person pauses typing, and shows what it found", async () => {
    vi.useFakeTimers();
    vi.mocked(commands.callsInFlight).mockResolvedValue([]);
    const found = {
      id: 9,
      atMs: START,
      kind: "tool_call",
      server: "demo",
      subject: "echo",
      decision: "allowed",
      decidedBy: { kind: "own_call" } as const,
      outcome: { kind: "succeeded" } as const,
      durationMs: 3,
      askedBy: "the person",
      detail: { text: "a needle" },
      given: "own" as const,
    };
    activity();
    await flush();
    expect(commands.audit).toHaveBeenCalledExactlyOnceWith("", null, 100);
    vi.mocked(commands.audit).mockResolvedValue([found]);

    const search = screen.getByRole("searchbox", { name: "Search audit log" });
    for (const typed of ["n", "ne", "nee", "needle"]) {
      fireEvent.change(search, { target: { value: typed } });
      act(() => vi.advanceTimersByTime(100));
    }
    expect(commands.audit).toHaveBeenCalledOnce();
    act(() => vi.advanceTimersByTime(250));
    await flush();
    expect(commands.audit).toHaveBeenCalledTimes(2);
    expect(commands.audit).toHaveBeenLastCalledWith("needle", null, 100);
    const table = screen.getByRole("table");
    expect(within(table).getByRole("button", { name: "echo" })).toBeTruthy();
    expect(table.textContent).toContain("by you (your own call)");
  });
});

describe("the activity view in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names its sections and a request waiting for the person in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.callsInFlight).mockResolvedValue([]);
    vi.mocked(commands.audit).mockResolvedValue([]);
    const sampling: Pending = {
      id: 8,
      server: "demo",
      deadlineMs: Date.now() + 60_000,
      forward: true,
      during: [],
      question: { kind: "sampling", params: { messages: [], maxTokens: 100 } },
    };
    activity([sampling]);
    await flush();
    const section = screen.getByRole("region", { name: "进行中" });
    const item = within(section).getByRole("listitem");
    expect(item.textContent).toContain("请求模型回复");
    expect(item.textContent).toContain("正在“审批”中等待你处理");
    expect(within(item).getByRole("button", { name: "取消 请求模型回复" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "审计记录" })).toBeTruthy();
    expect(screen.getByRole("searchbox", { name: "搜索审计记录" })).toBeTruthy();
    expect(screen.getByText("尚无任何记录。")).toBeTruthy();
  });
});

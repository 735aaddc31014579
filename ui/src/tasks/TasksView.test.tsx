import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type TaskEntry_Serialize as TaskEntry, type Update } from "../bindings";
import { TasksView } from "./TasksView";

vi.mock("../bindings", () => ({
  commands: { tasks: vi.fn(), cancelTask: vi.fn() },
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn() } },
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const task = (id: number, status: string, more: Partial<TaskEntry> = {}): TaskEntry => ({
  id,
  server: "everything",
  tool: "simulate-research-query",
  askedBy: "the person",
  taskId: `t-${id}`,
  status,
  statusMessage: null,
  startedMs: 1_000_000,
  updatedMs: 1_005_000,
  ttlMs: 300_000,
  result: null,
  error: null,
  ...more,
});

function tasks(list: TaskEntry[]) {
  const updates: Array<(event: { payload: Update }) => void> = [];
  vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
    updates.push(listener as (event: { payload: Update }) => void);
    return Promise.resolve(() => {});
  });
  vi.mocked(events.hostResync.listen).mockImplementation(() => Promise.resolve(() => {}));
  vi.mocked(commands.tasks).mockResolvedValue(list);
  render(<TasksView />);
  return { update: (payload: Update) => act(() => updates.forEach((listen) => listen({ payload }))) };
}

describe("TasksView", () => {
  it("lists each task with where it stands; one under way is cancelled, a finished one's result opened", async () => {
    const done = task(1, "completed", { result: { content: [{ type: "text", text: "The report" }] } });
    const working = task(2, "working", { statusMessage: "Gathering sources..." });
    const { update } = tasks([working, done]);
    await screen.findByText("Gathering sources...");
    const rows = screen.getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain("Working");
    expect(rows[1]?.textContent).toContain("Gathering sources...");
    expect(within(rows[2] as HTMLElement).queryByRole("button", { name: /Cancel/ })).toBeNull();

    vi.mocked(commands.cancelTask).mockResolvedValue(task(2, "cancelled"));
    vi.mocked(commands.tasks).mockResolvedValue([task(2, "cancelled"), done]);
    fireEvent.click(within(rows[1] as HTMLElement).getByRole("button", { name: "Cancel simulate-research-query of everything" }));
    expect(commands.cancelTask).toHaveBeenCalledWith(2);
    expect(await screen.findByText("Cancelled")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Open result" }));
    expect(within(screen.getByRole("region", { name: "Result of simulate-research-query of everything" })).getByText("The report")).toBeTruthy();
    // A task changed: the list is read again.
    vi.mocked(commands.tasks).mockResolvedValue([task(3, "working"), task(2, "cancelled"), done]);
    update({ kind: "task_changed", task: task(3, "working") } as Update);
    expect(await screen.findByText("Working")).toBeTruthy();
    expect(screen.getAllByRole("row")).toHaveLength(4);
  });

  it("says when no call has run as a task", async () => {
    tasks([]);
    expect(await screen.findByText(/No tool call has run as a task yet/)).toBeTruthy();
  });
});

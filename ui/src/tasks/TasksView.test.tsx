import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type TaskEntry_Serialize as TaskEntry, type Update } from "../bindings";
import { applyLanguage } from "../i18n";
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

describe("TasksView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the tasks, their tools and servers as named", async () => {
    act(() => applyLanguage("zh-CN"));
    const done = task(1, "completed", { result: { content: [{ type: "text", text: "The report" }] }, ttlMs: null });
    tasks([task(2, "input_required", { statusMessage: "Which topic?" }), done]);
    await screen.findByText("Which topic?");
    expect(screen.getByRole("region", { name: "任务" })).toBeTruthy();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "工具",
      "发起者",
      "状态",
      "开始时间",
      "用时",
      "保留时长",
      "操作",
    ]);
    const rows = screen.getAllByRole("row");
    expect(rows[1]?.textContent).toContain("等待你的回答");
    expect(rows[1]?.textContent).toContain("5 分 00 秒");
    expect(rows[2]?.textContent).toContain("已完成");
    expect(rows[2]?.textContent).toContain("直到结束");
    expect(rows[2]?.textContent).toContain("5 秒");
    expect(within(rows[1] as HTMLElement).getByRole("button", { name: "取消 everything 的 simulate-research-query" }).textContent).toBe("取消");
    fireEvent.click(screen.getByRole("button", { name: "查看结果" }));
    const result = screen.getByRole("region", { name: "everything 的 simulate-research-query 的结果" });
    expect(within(result).getByText("The report")).toBeTruthy();
    expect(screen.getByRole("button", { name: "隐藏结果" })).toBeTruthy();
  });

  it("says in Chinese when no call has run as a task", async () => {
    act(() => applyLanguage("zh-CN"));
    tasks([]);
    expect(await screen.findByText(/还没有以任务方式运行的工具调用/)).toBeTruthy();
  });
});

import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type Pending_Serialize as Pending, type Update } from "../bindings";
import { applyLanguage } from "../i18n";
import { QueuedNotice } from "./QueuedNotice";
import { usePending } from "./pending";
import { useWithdrawn } from "./withdrawn";

vi.mock("../bindings", () => ({
  commands: { pendingApprovals: vi.fn() },
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn() } },
}));

afterEach(cleanup);

const roots = (id: number, server: string, forward = false): Pending => ({
  id,
  server,
  deadlineMs: Date.now() + 60_000,
  forward,
  during: [],
  question: { kind: "roots" },
});

/** The notice as the window shows it, over the host's list; returns a way to play its updates. */
function liveNotice(list: Pending[]) {
  const updates: Array<(event: { payload: Update }) => void> = [];
  vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
    updates.push(listener as (event: { payload: Update }) => void);
    return Promise.resolve(() => {});
  });
  vi.mocked(events.hostResync.listen).mockResolvedValue(() => {});
  vi.mocked(commands.pendingApprovals).mockResolvedValue(list);
  function Window() {
    const pending = usePending();
    const [withdrawn, dismiss] = useWithdrawn(pending);
    return (
      <QueuedNotice
        pending={pending}
        selectedId={null}
        onReview={() => {}}
        onShowAll={() => {}}
        withdrawn={withdrawn}
        onDismissWithdrawn={dismiss}
      />
    );
  }
  render(<Window />);
  return (payload: Update) => act(() => updates.forEach((listen) => listen({ payload })));
}

describe("the notice of requests waiting in the queue", () => {
  it("names the oldest, opens it on Review, and leads to the rest", async () => {
    const onReview = vi.fn();
    const onShowAll = vi.fn();
    render(
      <QueuedNotice
        pending={[roots(1, "files"), roots(2, "everything"), roots(3, "now", true)]}
        selectedId={null}
        onReview={onReview}
        onShowAll={onShowAll}
      />,
    );
    const notice = screen.getByRole("group", { name: "Requests waiting" });
    expect(notice.textContent).toContain("files wants to know which folders it may see");
    expect(notice.textContent).toContain("1 more request waits");
    await userEvent.click(screen.getByRole("button", { name: "Review" }));
    expect(onReview).toHaveBeenCalledWith(1);
    await userEvent.click(screen.getByRole("button", { name: "Show all" }));
    expect(onShowAll).toHaveBeenCalled();
  });

  it("says a request that arrives in a live region there before it", () => {
    const props = { selectedId: null, onReview: () => {}, onShowAll: () => {} };
    const { rerender } = render(<QueuedNotice pending={[]} {...props} />);
    const live = screen.getByTestId("queued-notices");
    expect(live.getAttribute("aria-live")).toBe("polite");
    expect(live.textContent).toBe("");
    rerender(<QueuedNotice pending={[roots(1, "files")]} {...props} />);
    expect(screen.getByTestId("queued-notices")).toBe(live);
    expect(live.textContent).toContain("files wants to know which folders it may see");
  });

  it("says nothing of requests that come forward or of the one open", () => {
    render(<QueuedNotice pending={[roots(1, "files"), roots(2, "now", true)]} selectedId={1} onReview={() => {}} onShowAll={() => {}} />);
    expect(screen.queryByRole("group")).toBeNull();
  });

  it("is put aside with Later until another request arrives", async () => {
    const props = { selectedId: null, onReview: () => {}, onShowAll: () => {} };
    const { rerender } = render(<QueuedNotice pending={[roots(1, "files")]} {...props} />);
    await userEvent.click(screen.getByRole("button", { name: "Later" }));
    expect(screen.queryByRole("group")).toBeNull();
    rerender(<QueuedNotice pending={[roots(1, "files"), roots(2, "everything")]} {...props} />);
    expect(screen.getByRole("group").textContent).toContain("files");
  });

  it("says so, without interrupting, when a request put aside with Later is withdrawn by its server", async () => {
    const update = liveNotice([roots(1, "everything"), roots(2, "files")]);
    await userEvent.click(await screen.findByRole("button", { name: "Later" }));
    expect(screen.queryByRole("group")).toBeNull();
    update({ kind: "approval_removed", id: 1, withdrawn: true });
    const note = screen.getByRole("group", { name: "Requests withdrawn" });
    expect(note.textContent).toContain("everything withdrew its request to see your folders: it stopped waiting for your answer.");
    expect(screen.queryByRole("dialog")).toBeNull();
    // One the person answered leaves no note.
    update({ kind: "approval_removed", id: 2, withdrawn: false });
    expect(note.textContent).not.toContain("files");
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("group")).toBeNull();
  });

  it("leaves no note for a withdrawn request that had come forward", async () => {
    const update = liveNotice([roots(1, "now", true), roots(2, "files")]);
    await screen.findByRole("group", { name: "Requests waiting" });
    update({ kind: "approval_removed", id: 1, withdrawn: true });
    expect(screen.queryByRole("group", { name: "Requests withdrawn" })).toBeNull();
  });
});

describe("the notice of requests waiting, in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names the oldest request, counts the others, and notes those withdrawn, in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    const onDismissWithdrawn = vi.fn();
    const sampling: Pending = { ...roots(9, "writer"), question: { kind: "sampling", params: { messages: [], maxTokens: 10 } } };
    render(
      <QueuedNotice
        pending={[roots(1, "files"), roots(2, "everything"), roots(3, "git")]}
        selectedId={null}
        onReview={() => {}}
        onShowAll={() => {}}
        withdrawn={[roots(4, "notes"), sampling]}
        onDismissWithdrawn={onDismissWithdrawn}
      />,
    );
    const notice = screen.getByRole("group", { name: "等待处理的请求" });
    expect(notice.textContent).toContain("files 想知道它可以查看哪些文件夹，另有 2 个请求在等待");
    expect(screen.getByRole("button", { name: "审阅" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "查看全部" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "稍后" })).toBeTruthy();
    const note = screen.getByRole("group", { name: "已撤回的请求" });
    expect(note.textContent).toContain("notes 撤回了查看你文件夹的请求：它已不再等待你的回答。");
    expect(note.textContent).toContain("writer 撤回了对模型回复的请求");
    await userEvent.click(screen.getByRole("button", { name: "知道了" }));
    expect(onDismissWithdrawn).toHaveBeenCalledOnce();
  });

  it("counts a single other request as one", () => {
    render(<QueuedNotice pending={[roots(1, "files"), roots(2, "everything"), roots(3, "git")]} selectedId={null} onReview={() => {}} onShowAll={() => {}} />);
    expect(screen.getByRole("group").textContent).toContain("files wants to know which folders it may see and 2 more requests wait");
  });
});

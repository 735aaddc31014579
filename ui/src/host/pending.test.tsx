import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type Pending_Serialize as Pending, type Update } from "../bindings";
import { usePending } from "./pending";

vi.mock("../bindings", () => ({
  commands: { pendingApprovals: vi.fn() },
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn() } },
}));

afterEach(cleanup);

const roots = (id: number): Pending => ({ id, server: "files", deadlineMs: Date.now() + 60_000, forward: false, during: [], question: { kind: "roots" } });

/** Answers to `pendingApprovals`, in order, each settled when the test says so. */
function hostAnswers() {
  const answers: Array<(list: Pending[]) => void> = [];
  vi.mocked(commands.pendingApprovals).mockImplementation(
    () => new Promise<Pending[]>((resolve) => answers.push(resolve)),
  );
  return {
    count: () => answers.length,
    answer: async (n: number, list: Pending[]) => {
      await act(async () => answers[n]!(list));
    },
  };
}

/** Renders the hook; returns ways to play the host's events to it. */
function pending() {
  const updates: Array<(event: { payload: Update }) => void> = [];
  const resyncs: Array<(event: { payload: null }) => void> = [];
  vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
    updates.push(listener as (event: { payload: Update }) => void);
    return Promise.resolve(() => {});
  });
  vi.mocked(events.hostResync.listen).mockImplementation((listener) => {
    resyncs.push(listener as (event: { payload: null }) => void);
    return Promise.resolve(() => {});
  });
  const { result } = renderHook(() => usePending());
  return {
    ids: () => result.current.map((p) => p.id),
    update: (payload: Update) => act(() => updates.forEach((listen) => listen({ payload }))),
    resync: () => act(() => resyncs.forEach((listen) => listen({ payload: null }))),
    listening: () => waitFor(() => expect(updates.length * resyncs.length).toBeGreaterThan(0)),
  };
}

describe("the requests that wait, as the window knows them", () => {
  it("follows the requests the host adds and removes", async () => {
    const host = hostAnswers();
    const list = pending();
    await list.listening();
    await host.answer(0, [roots(1), roots(2)]);
    expect(list.ids()).toEqual([1, 2]);
    list.update({ kind: "approval_added", pending: roots(3) });
    list.update({ kind: "approval_removed", id: 1, withdrawn: false });
    expect(list.ids()).toEqual([2, 3]);
  });

  it("fetches the list again when the host says the window missed updates", async () => {
    const host = hostAnswers();
    const list = pending();
    await list.listening();
    await host.answer(0, [roots(1), roots(2)]);
    // Unseen: request 1 was answered elsewhere and request 3 arrived.
    list.resync();
    expect(host.count()).toBe(2);
    await host.answer(1, [roots(2), roots(3)]);
    expect(list.ids()).toEqual([2, 3]);
  });

  it("fetches the list again when the window comes back to the front", async () => {
    const host = hostAnswers();
    const list = pending();
    await list.listening();
    await host.answer(0, [roots(1)]);

    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    expect(host.count()).toBe(2);
    await host.answer(1, []);
    expect(list.ids()).toEqual([]);

    vi.spyOn(document, "visibilityState", "get").mockReturnValue("visible");
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    expect(host.count()).toBe(3);
    await host.answer(2, [roots(4)]);
    expect(list.ids()).toEqual([4]);
  });

  it("keeps what changed while the list was being fetched", async () => {
    const host = hostAnswers();
    const list = pending();
    await list.listening();
    await host.answer(0, [roots(1), roots(2)]);
    list.resync();
    // These may be newer than the list the host is about to send.
    list.update({ kind: "approval_added", pending: roots(3) });
    list.update({ kind: "approval_removed", id: 2, withdrawn: false });
    await host.answer(1, [roots(1), roots(2)]);
    expect(list.ids()).toEqual([1, 3]);
  });

  it("does not let an older answer replace a newer one", async () => {
    const host = hostAnswers();
    const list = pending();
    await list.listening();
    list.resync();
    await host.answer(1, [roots(5)]);
    await host.answer(0, [roots(1)]);
    expect(list.ids()).toEqual([5]);
  });
});

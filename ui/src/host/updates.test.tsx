import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { events, type Update } from "../bindings";
import { useFetched } from "./updates";

vi.mock("../bindings", () => ({
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn(() => Promise.resolve(() => {})) } },
}));

afterEach(cleanup);

/** The host's update events, with the moment the window starts to listen in the test's hands. */
function host() {
  const listeners: Array<(event: { payload: Update }) => void> = [];
  let listening: () => void = () => {};
  vi.mocked(events.hostUpdate.listen).mockImplementation(
    (listener) =>
      new Promise((resolve) => {
        listening = () => {
          listeners.push(listener as (event: { payload: Update }) => void);
          resolve(() => {});
        };
      }),
  );
  return {
    listen: () => act(async () => listening()),
    announce: (payload: Update) => act(() => listeners.forEach((l) => l({ payload }))),
  };
}

describe("data fetched from the host", () => {
  it("is fetched once the window listens, so a change announced meanwhile is not lost", async () => {
    const window = host();
    let state = "starting";
    const fetch = vi.fn(() => Promise.resolve(state));
    const { result } = renderHook(() => useFetched(fetch, ["status"]));
    // The server becomes ready before the window listens: its update reaches no one.
    state = "running";
    expect(fetch).not.toHaveBeenCalled();
    await window.listen();
    expect(result.current.data).toBe("running");
  });

  it("keeps the newest answer when an older one comes late", async () => {
    const window = host();
    const answers: Array<(value: string) => void> = [];
    const fetch = vi.fn(() => new Promise<string>((resolve) => answers.push(resolve)));
    const { result } = renderHook(() => useFetched(fetch, ["status"]));
    await window.listen();
    window.announce({ kind: "servers_changed" });
    expect(fetch).toHaveBeenCalledTimes(1);
    window.announce({ kind: "status", server: "demo", state: { state: "running" }, sinceMs: 1 } as never);
    expect(fetch).toHaveBeenCalledTimes(2);
    await act(async () => answers[1]!("new"));
    await act(async () => answers[0]!("old"));
    expect(result.current.data).toBe("new");
  });
});

import { act } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { vi } from "vitest";
import { ACTIVATION_DELAY_MS } from "./activationGuard";

/**
 * For tests: a person driving the page on a fake clock, so that a request dialog's guard
 * passes only when the test says so (`waitOutGuard`). Call `vi.useRealTimers()` after the test.
 */
export function userOnFakeClock() {
  vi.useFakeTimers();
  // Testing Library lets a fake clock run while it waits only when it sees Jest's: show it
  // Vitest's under that name, or each awaited action would wait forever.
  (globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) };
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

/** For tests: lets pass the time after which a request dialog takes clicks and Enter. */
export function waitOutGuard(ms = ACTIVATION_DELAY_MS) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

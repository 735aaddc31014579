import { vi } from "vitest";

/**
 * The bindings module as a component test mocks it: `commands` (mock functions), and the
 * host's events listened to but never sent. Used from a `vi.mock` factory, which runs before
 * the test file's imports:
 * `vi.mock("../bindings", async () => (await import("../testing/bindings")).withCommands({ ... }))`.
 */
export function withCommands<C extends object>(commands: C) {
  const silent = () => ({ listen: vi.fn(() => Promise.resolve(() => {})) });
  return {
    commands,
    events: { hostUpdate: silent(), hostResync: silent(), installLinksArrived: silent(), showRequest: silent() },
  };
}

import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type LogEntry, type Update } from "../bindings";
import { applyLanguage } from "../i18n";
import { ServerPanel } from "./ServerPanel";

vi.mock("../bindings", () => ({
  commands: {
    serverInfo: vi.fn(),
    serverLog: vi.fn(),
    setLogLevel: vi.fn(),
    clearServerLog: vi.fn(),
    serverTools: vi.fn(() => Promise.resolve([])),
    signedIn: vi.fn(() => Promise.resolve(null)),
    signInWaiting: vi.fn(() => Promise.resolve(false)),
  },
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn(() => Promise.resolve(() => {})) } },
}));

afterEach(cleanup);

/** Renders the panel and returns a way to announce host updates to it. */
async function panel(name: string) {
  const listeners: Array<(event: { payload: Update }) => void> = [];
  vi.mocked(commands.serverInfo).mockResolvedValue(null);
  vi.mocked(commands.serverLog).mockResolvedValue([]);
  vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
    listeners.push(listener as (event: { payload: Update }) => void);
    return Promise.resolve(() => {});
  });
  render(<ServerPanel name={name} state={null} />);
  await screen.findByText("Nothing logged yet.");
  return (updates: Update[]) =>
    act(() => {
      for (const payload of updates) for (const listener of listeners) listener({ payload });
    });
}

const logged = (server: string, n: number, text = `line ${n}`): Update => ({
  kind: "log",
  entry: { server, atMs: n, source: "stderr", level: null, text, note: null } satisfies LogEntry,
});

const keptTexts = () => Array.from(screen.getByRole("log").querySelectorAll("li .log-text"), (el) => el.textContent ?? "");

describe("a server's live log", () => {
  it("keeps only the newest 2,000 lines however many arrive", async () => {
    const announce = await panel("demo");
    announce(Array.from({ length: 2500 }, (_, n) => logged("demo", n)));
    announce([logged("other", 0)]);
    expect(screen.getByText("2,000 of 2,000 lines")).toBeTruthy();
    const texts = keptTexts();
    expect(texts[0]).toBe("line 500");
    expect(texts.at(-1)).toBe("line 2499");
  });

  it("keeps no more than a mebibyte of text, the newest line always", async () => {
    const announce = await panel("demo");
    const long = "x".repeat(16 * 1024);
    announce(Array.from({ length: 200 }, (_, n) => logged("demo", n, `${n} ${long}`)));
    const texts = keptTexts();
    const chars = texts.reduce((sum, text) => sum + text.length, 0);
    expect(chars).toBeLessThanOrEqual(1024 * 1024);
    expect(texts.length).toBeLessThan(200);
    expect(texts.at(-1)?.startsWith("199 ")).toBe(true);
  });
});

describe("a server's log as its pane opens", () => {
  it("keeps the lines that arrive while the kept log is fetched, each once", async () => {
    const listeners: Array<(event: { payload: Update }) => void> = [];
    vi.mocked(commands.serverInfo).mockResolvedValue(null);
    vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
      listeners.push(listener as (event: { payload: Update }) => void);
      return Promise.resolve(() => {});
    });
    let answer: (log: LogEntry[]) => void = () => {};
    vi.mocked(commands.serverLog).mockImplementation(
      () => new Promise((resolve) => (answer = (log) => resolve(log as never))),
    );
    render(<ServerPanel name="demo" state={null} />);
    await waitFor(() => expect(commands.serverLog).toHaveBeenCalled());
    // The restarted server's first lines, heard before the fetch answers; one of them the
    // fetch holds too.
    act(() => {
      for (const payload of [logged("demo", 2, "started with second"), logged("demo", 3, "ready")])
        for (const listener of listeners) listener({ payload });
    });
    await act(async () => answer([logged("demo", 1, "started with first"), logged("demo", 2, "started with second")].map((u) => (u as Extract<Update, { kind: "log" }>).entry)));
    expect(keptTexts()).toEqual(["started with first", "started with second", "ready"]);
  });
});

describe("a server's panel in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names its tabs and its empty log in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.serverInfo).mockResolvedValue(null);
    vi.mocked(commands.serverLog).mockResolvedValue([]);
    vi.mocked(events.hostUpdate.listen).mockImplementation(() => Promise.resolve(() => {}));
    render(<ServerPanel name="demo" state={null} />);
    expect(await screen.findByText("还没有日志。")).toBeTruthy();
    const tabs = screen.getByRole("tablist", { name: "服务器活动" });
    expect(Array.from(tabs.querySelectorAll("[role=tab]"), (tab) => tab.textContent)).toEqual(["日志", "通信"]);
    expect(screen.getByRole("tabpanel", { name: "日志" })).toBeTruthy();
    expect(screen.getByText("0 行，共 0 行")).toBeTruthy();
  });
});

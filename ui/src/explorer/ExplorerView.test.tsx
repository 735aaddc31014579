import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, events, type Update } from "../bindings";
import { applyLanguage } from "../i18n";
import { ExplorerView } from "./ExplorerView";
import { ExplorerStoreProvider } from "./kept";

vi.mock("../bindings", () => ({
  commands: {
    catalog: vi.fn(),
    callTool: vi.fn(),
    cancelCall: vi.fn(() => Promise.resolve(true)),
    readResource: vi.fn(),
    serverInfo: vi.fn(() => Promise.resolve(null)),
    skills: vi.fn(),
    loadSkill: vi.fn(),
  },
  events: { hostUpdate: { listen: vi.fn() }, hostResync: { listen: vi.fn() } },
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const catalog = {
  demo: {
    tools: [
      {
        name: "echo",
        title: "Echo",
        description: "Sends the text back",
        inputSchema: { type: "object", properties: { text: { type: "string", description: "What to send back" } } },
      },
    ],
    resources: [],
    templates: [],
    prompts: [],
  },
};

/** The explorer beside another view, the store above both, as the window holds them. */
function Window() {
  const [view, setView] = useState<"explorer" | "other">("explorer");
  return (
    <ExplorerStoreProvider>
      <button type="button" onClick={() => setView(view === "explorer" ? "other" : "explorer")}>
        Switch view
      </button>
      {view === "explorer" ? <ExplorerView /> : <p>Another view</p>}
    </ExplorerStoreProvider>
  );
}

function host() {
  const updates: Array<(event: { payload: Update }) => void> = [];
  vi.mocked(events.hostUpdate.listen).mockImplementation((listener) => {
    updates.push(listener as (event: { payload: Update }) => void);
    return Promise.resolve(() => {});
  });
  vi.mocked(events.hostResync.listen).mockImplementation(() => Promise.resolve(() => {}));
  vi.mocked(commands.catalog).mockResolvedValue(catalog as never);
  vi.mocked(commands.skills).mockResolvedValue([]);
  let answer: (result: unknown) => void = () => {};
  vi.mocked(commands.callTool).mockImplementation(() => new Promise((resolve) => (answer = resolve as never)));
  return {
    update: (payload: Update) => act(() => updates.forEach((listen) => listen({ payload }))),
    answer: (result: unknown) => act(async () => answer(result)),
  };
}

const switchView = () => fireEvent.click(screen.getByRole("button", { name: "Switch view" }));

describe("the explorer across views", () => {
  it("keeps the chosen tool, its form, the call under way and its result when the person comes back", async () => {
    const user = userEvent.setup();
    const window = host();
    render(<Window />);
    await user.click(await screen.findByRole("button", { name: "Echo on demo" }));
    const field = await screen.findByRole("textbox", { name: /text/ });
    await user.type(field, "hello there");
    await user.click(screen.getByRole("button", { name: "Invoke" }));
    const [, , , token] = vi.mocked(commands.callTool).mock.calls[0]!;
    expect(commands.callTool).toHaveBeenCalledWith("demo", "echo", { text: "hello there" }, token, false);

    // Away while the call runs: its progress arrives meanwhile.
    switchView();
    expect(screen.getByText("Another view")).toBeTruthy();
    window.update({
      kind: "progress",
      item: { token, server: "demo", label: "Echo", progress: 2, total: 5, message: "half way", startedMs: Date.now() },
    });
    switchView();
    expect(screen.getByRole("button", { name: "Echo on demo" }).getAttribute("aria-current")).toBe("true");
    expect((screen.getByRole("textbox", { name: /text/ }) as HTMLInputElement).value).toBe("hello there");
    expect(screen.getByRole("status").textContent).toContain("half way");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(commands.cancelCall).toHaveBeenCalledExactlyOnceWith(token);

    // Away again when the answer comes: it is there on return.
    switchView();
    await window.answer({ content: [{ type: "text", text: "hello there, back" }] });
    switchView();
    await waitFor(() => expect(screen.getByText("hello there, back")).toBeTruthy());
    expect((screen.getByRole("textbox", { name: /text/ }) as HTMLInputElement).value).toBe("hello there");
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    expect((screen.getByRole("button", { name: "Invoke" }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("a resource linked from a result", () => {
  it("opens in the explorer and is read at once, listed by its server or not", async () => {
    const user = userEvent.setup();
    const window = host();
    vi.mocked(commands.readResource).mockImplementation((_server, uri) =>
      Promise.resolve({ contents: [{ uri, mimeType: "text/plain", text: `inside ${uri}` }] } as never),
    );
    render(<Window />);
    await user.click(await screen.findByRole("button", { name: "Echo on demo" }));
    await user.click(screen.getByRole("button", { name: "Invoke" }));
    await window.answer({
      content: [{ type: "resource_link", uri: "demo://reports/7", name: "report-7", title: "Report 7" }],
    });
    await user.click(await screen.findByRole("button", { name: "Read demo://reports/7" }));
    expect(commands.readResource).toHaveBeenCalledWith("demo", "demo://reports/7");
    const detail = screen.getByRole("region", { name: "Details" });
    await waitFor(() => expect(detail.textContent).toContain("inside demo://reports/7"));
    expect(detail.textContent).toContain("Report 7");
  });
});

describe("a call the server refuses until the person visited a page", () => {
  it("says so and offers to try the same call again", async () => {
    const user = userEvent.setup();
    host();
    vi.mocked(commands.callTool)
      .mockRejectedValueOnce({ code: "browser_step", message: "demo needs you to finish a page in your browser before this call: once you have, try the call again" })
      .mockResolvedValueOnce({ content: [{ type: "text", text: "connected" }] } as never);
    render(<Window />);
    await user.click(await screen.findByRole("button", { name: "Echo on demo" }));
    await user.type(await screen.findByRole("textbox", { name: /text/ }), "hi");
    await user.click(screen.getByRole("button", { name: "Invoke" }));
    expect((await screen.findByRole("alert")).textContent).toContain("try the call again");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(commands.callTool).toHaveBeenCalledTimes(2);
    expect(vi.mocked(commands.callTool).mock.calls[1]!.slice(0, 3)).toEqual(["demo", "echo", { text: "hi" }]);
    expect(await screen.findByText("connected")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
  });

  it("offers no retry for other failures", async () => {
    const user = userEvent.setup();
    host();
    vi.mocked(commands.callTool).mockRejectedValueOnce({ code: "server", message: "the server fell over" });
    render(<Window />);
    await user.click(await screen.findByRole("button", { name: "Echo on demo" }));
    await user.click(screen.getByRole("button", { name: "Invoke" }));
    expect((await screen.findByRole("alert")).textContent).toContain("fell over");
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
  });
});

describe("a server's skills", () => {
  const tour = {
    uri: "skill://tour/SKILL.md",
    name: "tour",
    description: "Shows a visitor around",
    files: [{ uri: "skill://tour/SKILL.md", size: 300 }],
    allowedForModels: true,
  };

  it("are listed under Skills, and one opens without being loaded", async () => {
    const user = userEvent.setup();
    host();
    vi.mocked(commands.catalog).mockResolvedValue({ ...catalog, quiet: { tools: [], resources: [], templates: [], prompts: [] } } as never);
    vi.mocked(commands.skills).mockImplementation((server) => Promise.resolve(server === "demo" ? [tour] : []));
    render(<Window />);
    const skills = await screen.findByRole("region", { name: "Skills 1" });
    expect(commands.skills).toHaveBeenCalledWith("demo");
    expect(commands.skills).toHaveBeenCalledWith("quiet");
    await user.click(within(skills).getByRole("button", { name: "tour on demo" }));
    const detail = screen.getByRole("region", { name: "Details" });
    expect(within(detail).getByRole("heading", { name: "tour" })).toBeTruthy();
    expect(within(detail).getByText("Models may use it as it is now")).toBeTruthy();
    expect(within(detail).getByRole("button", { name: "Load" })).toBeTruthy();
    expect(commands.loadSkill).not.toHaveBeenCalled();
  });

  it("are left out for a server whose list fails", async () => {
    host();
    vi.mocked(commands.skills).mockRejectedValue({ code: "server", message: "no skills here" });
    render(<Window />);
    expect(await screen.findByRole("button", { name: "Echo on demo" })).toBeTruthy();
    await waitFor(() => expect(commands.skills).toHaveBeenCalledWith("demo"));
    expect(screen.queryByRole("region", { name: /^Skills/ })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("the explorer in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says in Chinese that there is nothing to explore yet", async () => {
    act(() => applyLanguage("zh-CN"));
    host();
    vi.mocked(commands.catalog).mockResolvedValue({} as never);
    render(<Window />);
    expect(await screen.findByRole("heading", { name: "还没有可探索的内容" })).toBeTruthy();
    expect(screen.getByText("服务器运行后，它的工具、资源和提示词会列在这里。")).toBeTruthy();
  });

  it("speaks Chinese around a call and its progress", async () => {
    const user = userEvent.setup();
    act(() => applyLanguage("zh-CN"));
    const window = host();
    render(<Window />);
    const entry = await screen.findByRole("button", { name: "Echo 来自 demo" });
    const detail = screen.getByRole("region", { name: "详情" });
    expect(within(detail).getByText("选择一个工具、资源、提示词或技能。")).toBeTruthy();
    await user.click(entry);
    expect(within(detail).getByText("的工具", { exact: false }).textContent).toBe("demo 的工具");
    await user.click(screen.getByRole("button", { name: "调用" }));
    const [, , , token] = vi.mocked(commands.callTool).mock.calls[0]!;
    window.update({
      kind: "progress",
      item: { token, server: "demo", label: "Echo", progress: 2, total: 5, startedMs: Date.now() },
    });
    expect(screen.getByRole("status").textContent).toBe("进行中…（2 / 5）");
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();
    await window.answer({ content: [{ type: "text", text: "echoed" }] });
    expect(await screen.findByText("echoed")).toBeTruthy();
  });
});

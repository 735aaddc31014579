import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type OpenedView_Serialize, type ViewChange } from "../bindings";
import { applyLanguage } from "../i18n";
import { applyTheme } from "../theme";
import type { Tool } from "../mcp/schema";
import { ViewFrame } from "./ViewFrame";

vi.mock("../bindings", () => ({
  commands: { openView: vi.fn() },
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const tool = { name: "show-board", title: "Board", inputSchema: { type: "object" } } as Tool;

const pin = (sha256: string) => ({
  server: "board",
  identity: "node board.js",
  uri: "ui://board/view",
  sha256,
  bytes: 100,
  policy: "default-src 'self'",
  atMs: Date.UTC(2025, 0, 2, 3, 4, 5),
});

const change: ViewChange = { before: pin("a".repeat(64)), after: pin("b".repeat(64)), serverChanged: true };

const view = (more: Partial<OpenedView_Serialize> = {}): OpenedView_Serialize => ({
  server: "board",
  uri: "ui://board/view",
  url: "http://127.0.0.1:4000/view",
  policy: "default-src 'self'",
  sha256: "b".repeat(64),
  prefersBorder: null,
  changed: null,
  ...more,
});

function frame(onClose?: () => void) {
  render(<ViewFrame server="board" uri="ui://board/view" tool={tool} arguments={null} result={null} onClose={onClose} />);
}

describe("ViewFrame", () => {
  it("says whose app it shows, what it may load, and how it is shown", async () => {
    vi.mocked(commands.openView).mockResolvedValue(view());
    frame(vi.fn());
    const region = screen.getByRole("region", { name: "App from board" });
    expect(await within(region).findByTitle("App from board: Board")).toBeTruthy();
    expect(region.querySelector(".view-frame-head span")?.textContent).toBe("App from board");
    expect(within(region).getByText("What it may load")).toBeTruthy();
    fireEvent.click(within(region).getByRole("button", { name: "Full screen" }));
    expect(within(region).getByRole("button", { name: "Back to inline" })).toBeTruthy();
    expect(within(region).getByRole("button", { name: "Close" })).toBeTruthy();
  });

  it("says why the app could not be shown", async () => {
    vi.mocked(commands.openView).mockRejectedValue({ code: "not_found", message: "no view at ui://board/view" });
    frame();
    expect((await screen.findByRole("alert")).textContent).toBe("The app could not be shown: no view at ui://board/view");
  });

  it("says the app is not shown when the person chose not to see it changed", async () => {
    vi.mocked(commands.openView).mockResolvedValue(view({ url: null, changed: change }));
    frame();
    fireEvent.click(await screen.findByRole("button", { name: "Don't show" }));
    expect(screen.getByText("Not shown: the app changed and you chose not to show it.")).toBeTruthy();
  });
});

describe("ViewFrame in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("tells the app the window's language and colours, and tells it again when they change", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.openView).mockResolvedValue(view());
    frame();
    const shown = (await screen.findByTitle("来自 board 的应用：Board")) as HTMLIFrameElement;
    const app = shown.contentWindow!;
    const posted = vi.spyOn(app, "postMessage").mockImplementation(() => {});
    const send = (data: object) =>
      act(() => {
        window.dispatchEvent(new MessageEvent("message", { data, source: app, origin: "http://127.0.0.1:4000" }));
      });
    const answer = () =>
      posted.mock.calls.map(([m]) => m as { id?: number; result?: { hostContext: { locale: string } } }).find((m) => m.id === 1);
    // Asked until the frame's bridge listens (it starts once the frame is shown), as a view
    // that loads early might.
    await waitFor(
      () => {
        if (!answer()) send({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: { appInfo: { name: "board", version: "1" } } });
        expect(answer()?.result?.hostContext.locale).toBe("zh-CN");
      },
    );
    send({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    act(() => applyLanguage("en"));
    expect(posted.mock.calls.map(([m]) => m)).toContainEqual({
      jsonrpc: "2.0",
      method: "ui/notifications/host-context-changed",
      params: { locale: "en" },
    });
    act(() => applyTheme("dark"));
    expect(posted.mock.calls.map(([m]) => m)).toContainEqual({
      jsonrpc: "2.0",
      method: "ui/notifications/host-context-changed",
      params: { theme: "dark" },
    });
    act(() => applyTheme(null));
  });

  it("says in Chinese whose app it shows, the tool as its server titles it", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.openView).mockResolvedValue(view());
    frame(vi.fn());
    const region = screen.getByRole("region", { name: "来自 board 的应用" });
    expect(await within(region).findByTitle("来自 board 的应用：Board")).toBeTruthy();
    expect(region.querySelector(".view-frame-head span strong")?.textContent).toBe("board");
    expect(within(region).getByText("可加载的内容")).toBeTruthy();
    fireEvent.click(within(region).getByRole("button", { name: "全屏" }));
    expect(within(region).getByRole("button", { name: "恢复内嵌显示" })).toBeTruthy();
    expect(within(region).getByRole("button", { name: "关闭" })).toBeTruthy();
  });

  it("says in Chinese why the app could not be shown, the host's reason as it gave it", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.openView).mockRejectedValue({ code: "not_found", message: "no view at ui://board/view" });
    frame();
    expect((await screen.findByRole("alert")).textContent).toBe("无法显示应用：no view at ui://board/view");
  });

  it("says in Chinese the changed app is not shown", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.openView).mockResolvedValue(view({ url: null, changed: change }));
    frame();
    expect(await screen.findByRole("alert", { name: "board 的应用已更改" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "不显示" }));
    expect(screen.getByText("未显示：应用已更改，你选择了不显示它。")).toBeTruthy();
  });
});

import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ViewChange } from "../bindings";
import { applyLanguage } from "../i18n";
import type { Downloadable } from "./bridge";
import { DownloadDialog, LinkDialog, ViewChanged } from "./ViewAsks";

afterEach(cleanup);

const text = (uri: string, body: string, mimeType = "text/plain"): Downloadable => ({
  type: "resource",
  resource: { uri, text: body, mimeType },
});

const link = (uri: string, name: string, size?: number): Downloadable => ({ type: "resource_link", uri, name, ...(size === undefined ? {} : { size }) }) as Downloadable;

const pin = (sha256: string, bytes: number, policy: string) => ({
  server: "board",
  identity: "node board.js",
  uri: "ui://board/view",
  sha256,
  bytes,
  policy,
  atMs: Date.UTC(2025, 0, 2, 3, 4, 5),
});

const change: ViewChange = {
  before: pin("a".repeat(64), 512, "default-src 'self'; img-src 'self'"),
  after: pin("b".repeat(64), 2048, "default-src 'self'; connect-src https://api.example.com"),
  serverChanged: true,
};

describe("what a view asks", () => {
  it("asks to open a web page, in the person's hands", () => {
    const onAnswer = vi.fn();
    render(<LinkDialog server="board" url="https://example.com/page" onAnswer={onAnswer} />);
    const dialog = screen.getByRole("dialog", { name: "The app of board wants to open a web page" });
    expect(within(dialog).getByText("Nothing in this address looks odd. Open it only if you asked the app to.")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Don't open" }));
    expect(onAnswer).toHaveBeenLastCalledWith(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Open in browser" }));
    expect(onAnswer).toHaveBeenLastCalledWith(true);
  });

  it("asks to save a file, or several, each with its type and size", () => {
    render(<DownloadDialog server="board" files={[text("file:///notes/a.txt", "hello")]} onSave={vi.fn()} onDone={vi.fn()} />);
    expect(screen.getByRole("dialog", { name: "The app of board wants to save a file" })).toBeTruthy();
    cleanup();
    render(
      <DownloadDialog
        server="board"
        files={[text("file:///notes/a.txt", "hello"), link("https://example.com/b.csv", "b.csv"), link("https://example.com/c", "c.bin", 2048)]}
        onSave={vi.fn()}
        onDone={vi.fn()}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "The app of board wants to save 3 files" });
    const files = within(dialog).getAllByRole("listitem").map((li) => li.textContent);
    expect(files).toEqual(["a.txt text/plain, 5 bytes", "b.csv ", "c.bin 2.0 KB"]);
    expect(within(dialog).getByRole("list", { name: "Files" })).toBeTruthy();
    expect(within(dialog).getByText("You choose where each is saved.")).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Don't save" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Save…" })).toBeTruthy();
  });

  it("says what changed of a view before it is shown again", () => {
    render(<ViewChanged server="board" change={change} onShow={vi.fn()} onSkip={vi.fn()} />);
    const alert = screen.getByRole("alert", { name: "The app of board changed" });
    expect(alert.querySelector("p")?.textContent).toMatch(/^The app of board changed since it was shown on .+\. It is not shown until you agree\.$/);
    expect(within(alert).getByText("Its server is launched otherwise than then.")).toBeTruthy();
    expect(within(alert).getByText(/^Its page is another:/).textContent).toBe(
      "Its page is another: 512 bytes then, 2.0 KB now (SHA-256 aaaaaaaaaaaa… then, bbbbbbbbbbbb… now).",
    );
    expect(within(alert).getByText("What it may load changed:")).toBeTruthy();
    expect(within(alert).getByRole("button", { name: "Don't show" })).toBeTruthy();
    expect(within(alert).getByRole("button", { name: "Show the changed app" })).toBeTruthy();
  });
});

describe("what a view asks, in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("asks in Chinese to open a web page", () => {
    act(() => applyLanguage("zh-CN"));
    const onAnswer = vi.fn();
    render(<LinkDialog server="board" url="https://example.com/page" onAnswer={onAnswer} />);
    const dialog = screen.getByRole("dialog", { name: "board 的应用想要打开一个网页" });
    expect(within(dialog).getByText("这个地址看起来没有异常。请仅在你让应用打开它时才打开。")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "不打开" }));
    expect(onAnswer).toHaveBeenLastCalledWith(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "在浏览器中打开" }));
    expect(onAnswer).toHaveBeenLastCalledWith(true);
  });

  it("counts in Chinese the files a view asks to save, the files as named", () => {
    act(() => applyLanguage("zh-CN"));
    render(<DownloadDialog server="board" files={[text("file:///notes/a.txt", "hello")]} onSave={vi.fn()} onDone={vi.fn()} />);
    expect(screen.getByRole("dialog", { name: "board 的应用想要保存一个文件" })).toBeTruthy();
    cleanup();
    render(
      <DownloadDialog
        server="board"
        files={[text("file:///notes/a.txt", "hello"), link("https://example.com/c", "c.bin", 2048)]}
        onSave={vi.fn()}
        onDone={vi.fn()}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "board 的应用想要保存 2 个文件" });
    const list = within(dialog).getByRole("list", { name: "文件" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["a.txt text/plain，5 字节", "c.bin 2.0 KB"]);
    expect(within(dialog).getByText("每个文件保存到哪里，由你选择。")).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "不保存" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "保存…" })).toBeTruthy();
  });

  it("says in Chinese what changed of a view", () => {
    act(() => applyLanguage("zh-CN"));
    render(<ViewChanged server="board" change={change} onShow={vi.fn()} onSkip={vi.fn()} />);
    const alert = screen.getByRole("alert", { name: "board 的应用已更改" });
    expect(alert.querySelector("p strong")?.textContent).toBe("board");
    expect(alert.querySelector("p")?.textContent).toMatch(/^board 的应用自 .+ 显示以来已有更改。在你同意之前，它不会显示。$/);
    expect(within(alert).getByText("它的服务器的启动方式与当时不同。")).toBeTruthy();
    expect(within(alert).getByText(/^它的页面已不同：/).textContent).toBe(
      "它的页面已不同：当时 512 字节，现在 2.0 KB（SHA-256 当时为 aaaaaaaaaaaa…，现在为 bbbbbbbbbbbb…）。",
    );
    expect(within(alert).getByText("它可以加载的内容已更改：")).toBeTruthy();
    expect(within(alert).getByRole("button", { name: "不显示" })).toBeTruthy();
    expect(within(alert).getByRole("button", { name: "显示更改后的应用" })).toBeTruthy();
  });
});

import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { RootsDialog } from "./RootsDialog";
import { isAbsolutePath } from "./FolderList";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup(
  initial = ["/home/ada/notes"],
  onBrowse = vi.fn(() => Promise.resolve<string | null>(null)),
  onCheck = vi.fn((_path: string) => Promise.resolve<string | null>(null)),
) {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(
    <RootsDialog
      request={{ id: 4, server: "indexer", deadlineMs: Date.now() + 90_000 }}
      initial={initial}
      onBrowse={onBrowse}
      onCheck={onCheck}
      onAnswer={onAnswer}
    />,
  );
  const path = () => screen.getByRole("textbox", { name: "Folder path" });
  const listed = () =>
    screen.queryByRole("list", { name: "Folders to share" })
      ? within(screen.getByRole("list", { name: "Folders to share" }))
          .getAllByRole("listitem")
          .map((li) => li.querySelector("code")?.textContent)
      : [];
  // These tests use the dialog as the person does, once it takes clicks.
  waitOutGuard();
  return { onAnswer, onBrowse, user, path, listed };
}

describe("RootsDialog", () => {
  it("names the server and lists the folders already shared", () => {
    const { listed } = setup();
    expect(screen.getByRole("dialog", { name: "indexer wants to see your folders" })).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toMatch(/^Answers itself in 1:[23]\d \(shares nothing\)$/);
    expect(listed()).toEqual(["/home/ada/notes"]);
  });

  it("adds typed absolute paths, by button or Enter, and removes folders", async () => {
    const { onAnswer, user, path, listed } = setup();
    await user.type(path(), "/srv/data");
    await user.click(screen.getByRole("button", { name: "Add" }));
    // Each folder is checked with the host before it is listed.
    await waitFor(() => expect(listed()).toContain("/srv/data"));
    await user.type(path(), "C:\\Users\\ada{Enter}");
    await waitFor(() => expect(listed()).toContain("C:\\Users\\ada"));
    expect(onAnswer).not.toHaveBeenCalled();
    expect(listed()).toEqual(["/home/ada/notes", "/srv/data", "C:\\Users\\ada"]);
    expect(path()).toHaveProperty("value", "");
    await user.click(screen.getByRole("button", { name: "Remove /home/ada/notes" }));
    await user.click(screen.getByRole("button", { name: "Share these folders" }));
    expect(onAnswer).toHaveBeenCalledWith(["/srv/data", "C:\\Users\\ada"]);
  });

  it("refuses a relative path or a folder already listed, with a message", async () => {
    const { user, path, listed } = setup();
    await user.type(path(), "projects/x{Enter}");
    expect(screen.getByRole("alert").textContent).toBe("Enter an absolute path, such as /home/you/project");
    expect(path().getAttribute("aria-invalid")).toBe("true");
    await user.clear(path());
    await user.type(path(), "/home/ada/notes{Enter}");
    expect(screen.getByRole("alert").textContent).toBe("This folder is already in the list");
    expect(listed()).toEqual(["/home/ada/notes"]);
  });

  it("refuses a folder that does not exist, saying why, before anything is shared", async () => {
    const onCheck = vi.fn((path: string) =>
      Promise.resolve(path === "/srv/gone" ? "No such file or directory (os error 2)" : null),
    );
    const { onAnswer, user, path, listed } = setup(["/home/ada/notes"], undefined, onCheck);
    await user.type(path(), "/srv/gone{Enter}");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This folder cannot be shared: No such file or directory (os error 2)",
    );
    expect(onCheck).toHaveBeenCalledWith("/srv/gone");
    expect(listed()).toEqual(["/home/ada/notes"]);
    expect(path()).toHaveProperty("value", "/srv/gone");
    await user.clear(path());
    await user.type(path(), "/srv/data{Enter}");
    await waitFor(() => expect(listed()).toEqual(["/home/ada/notes", "/srv/data"]));
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Share these folders" }));
    expect(onAnswer).toHaveBeenCalledWith(["/home/ada/notes", "/srv/data"]);
  });

  it("waits for a folder's check before it can share", async () => {
    let answer: (reason: string | null) => void = () => {};
    const onCheck = vi.fn(() => new Promise<string | null>((resolve) => (answer = resolve)));
    const { onAnswer, user, path, listed } = setup([], undefined, onCheck);
    await user.type(path(), "/srv/data{Enter}");
    const share = screen.getByRole("button", { name: "Share these folders" });
    expect(share).toHaveProperty("disabled", true);
    await user.click(share);
    expect(onAnswer).not.toHaveBeenCalled();
    answer(null);
    await waitFor(() => expect(listed()).toEqual(["/srv/data"]));
    await waitFor(() => expect(share).toHaveProperty("disabled", false));
    await user.click(share);
    expect(onAnswer).toHaveBeenCalledWith(["/srv/data"]);
  });

  it("adds the folder picked with Browse…, and nothing when the picker is closed", async () => {
    const onBrowse = vi
      .fn<() => Promise<string | null>>()
      .mockResolvedValueOnce("/home/ada/code")
      .mockResolvedValueOnce(null);
    const { onAnswer, user, listed } = setup([], onBrowse);
    expect(screen.getByText("No folder is shared.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Browse…" }));
    await waitFor(() => expect(listed()).toEqual(["/home/ada/code"]));
    await user.click(screen.getByRole("button", { name: "Browse…" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Browse…" })).toHaveProperty("disabled", false));
    expect(listed()).toEqual(["/home/ada/code"]);
    expect(onBrowse).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole("button", { name: "Share these folders" }));
    expect(onAnswer).toHaveBeenCalledWith(["/home/ada/code"]);
  });

  it("says when the folder picker fails", async () => {
    const { user } = setup(
      [],
      vi.fn(() => Promise.reject(new Error("no portal"))),
    );
    await user.click(screen.getByRole("button", { name: "Browse…" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The folder picker failed: no portal");
  });

  it("shares an empty list, and shares nothing on the button or Esc", async () => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("button", { name: "Remove /home/ada/notes" }));
    await user.click(screen.getByRole("button", { name: "Share these folders" }));
    expect(onAnswer).toHaveBeenLastCalledWith([]);
    await user.click(screen.getByRole("button", { name: "Share nothing" }));
    expect(onAnswer).toHaveBeenLastCalledWith([]);
    await user.keyboard("{Escape}");
    expect(onAnswer).toHaveBeenCalledTimes(3);
  });
});

describe("RootsDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("asks in Chinese, with the folders and paths as they are", async () => {
    act(() => applyLanguage("zh-CN"));
    const onCheck = vi.fn((path: string) => Promise.resolve(path === "/srv/gone" ? "No such file or directory" : null));
    const { onAnswer, user } = setup(["/home/ada/notes"], undefined, onCheck);
    screen.getByRole("dialog", { name: "indexer 想要查看你的文件夹" });
    screen.getByText("服务器可以读取这些文件夹中的内容，并对其中的文件执行它获准的任何操作。只共享它需要的文件夹。");
    expect(screen.getByRole("timer").textContent).toContain("不共享任何文件夹");
    expect(within(screen.getByRole("list", { name: "要共享的文件夹" })).getByRole("listitem").textContent).toContain(
      "/home/ada/notes",
    );
    const path = screen.getByRole("textbox", { name: "文件夹路径" });
    await user.type(path, "projects/x{Enter}");
    expect(screen.getByRole("alert").textContent).toBe("请输入绝对路径，例如 /home/you/project");
    // A message already shown follows the language.
    act(() => applyLanguage("en"));
    expect(screen.getByRole("alert").textContent).toBe("Enter an absolute path, such as /home/you/project");
    act(() => applyLanguage("zh-CN"));
    await user.clear(path);
    await user.click(screen.getByRole("button", { name: "添加" }));
    expect(screen.getByRole("alert").textContent).toBe("请输入文件夹路径");
    await user.type(path, "/home/ada/notes{Enter}");
    expect(screen.getByRole("alert").textContent).toBe("此文件夹已在列表中");
    await user.clear(path);
    await user.type(path, "/srv/gone{Enter}");
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("无法共享此文件夹：No such file or directory"));
    await user.click(screen.getByRole("button", { name: "移除 /home/ada/notes" }));
    expect(screen.getByText("未共享任何文件夹。")).toBeTruthy();
    screen.getByRole("button", { name: "浏览…" });
    await user.click(screen.getByRole("button", { name: "共享这些文件夹" }));
    expect(onAnswer).toHaveBeenLastCalledWith([]);
    await user.click(screen.getByRole("button", { name: "不共享" }));
    expect(onAnswer).toHaveBeenCalledTimes(2);
  });

  it("says in Chinese when the folder picker fails", async () => {
    act(() => applyLanguage("zh-CN"));
    const { user } = setup([], vi.fn(() => Promise.reject(new Error("no portal"))));
    await user.click(screen.getByRole("button", { name: "浏览…" }));
    expect((await screen.findByRole("alert")).textContent).toBe("文件夹选择器出错：no portal");
  });
});

describe("isAbsolutePath", () => {
  it("knows POSIX, drive and network paths", () => {
    expect(["/", "/home/a", "C:\\x", "d:/x", "\\\\srv\\share"].every(isAbsolutePath)).toBe(true);
    expect(["", "a/b", "./a", "~/a", "C:x"].some(isAbsolutePath)).toBe(false);
  });
});

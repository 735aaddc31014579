import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { commands } from "../bindings";
import { SharedFolders } from "./SharedFolders";

vi.mock("../bindings", () => ({
  commands: {
    serverRoots: vi.fn(),
    setServerRoots: vi.fn(),
    sandboxView: vi.fn(),
    setFolderReadOnly: vi.fn(),
    pickFolder: vi.fn(),
    checkFolder: vi.fn(),
  },
  events: {
    hostUpdate: { listen: vi.fn(() => Promise.resolve(() => {})) },
    hostResync: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

afterEach(cleanup);
beforeEach(() => {
  vi.mocked(commands.serverRoots).mockResolvedValue(["/home/me/papers", "/home/me/project"]);
  vi.mocked(commands.sandboxView).mockResolvedValue({
    programs: [],
    roots: ["/home/me/project"],
    readOnly: ["/home/me/papers"],
    caches: [],
    network: false,
    engine: "bubblewrap",
    cannot: null,
  });
});

describe("SharedFolders", () => {
  it("lets each folder of a sandboxed server be read only, as the sandbox has it", async () => {
    vi.mocked(commands.setFolderReadOnly).mockResolvedValue(null);
    render(<SharedFolders server="notes" sandboxed />);
    const papers = await screen.findByRole("checkbox", { name: "Read only: /home/me/papers" });
    await waitFor(() => expect(papers).toHaveProperty("checked", true));
    const project = screen.getByRole("checkbox", { name: "Read only: /home/me/project" });
    expect(project).toHaveProperty("checked", false);
    await userEvent.click(project);
    expect(commands.setFolderReadOnly).toHaveBeenCalledExactlyOnceWith("notes", "/home/me/project", true);
  });

  it("offers no such choice outside the sandbox, and says why a change was refused", async () => {
    render(<SharedFolders server="notes" />);
    expect(await screen.findByText("/home/me/papers")).toBeTruthy();
    expect(screen.queryByRole("checkbox")).toBeNull();
    cleanup();
    vi.mocked(commands.setFolderReadOnly).mockRejectedValue({ code: "notFound", message: "not shared with notes" });
    render(<SharedFolders server="notes" sandboxed />);
    await userEvent.click(await screen.findByRole("checkbox", { name: "Read only: /home/me/project" }));
    expect((await screen.findByRole("alert")).textContent).toContain("not shared with notes");
  });
});

describe("SharedFolders in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names the shared folders, their read-only choice and the share button in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<SharedFolders server="notes" sandboxed />);
    const papers = await screen.findByRole("checkbox", { name: "只读：/home/me/papers" });
    expect(papers.parentElement?.textContent).toBe("只读");
    expect(screen.getByRole("region", { name: "共享文件夹" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "与 notes 共享这些文件夹" })).toHaveProperty("disabled", true);
  });

  it("says in Chinese why a folder cannot be shared, as the host checked it", async () => {
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.checkFolder).mockResolvedValue({ kind: "notFound" });
    render(<SharedFolders server="notes" />);
    await userEvent.type(await screen.findByRole("textbox", { name: "文件夹路径" }), "/srv/gone");
    await userEvent.click(screen.getByRole("button", { name: "添加" }));
    expect((await screen.findByRole("alert")).textContent).toBe("无法共享此文件夹：没有这个文件夹");
    expect(commands.checkFolder).toHaveBeenCalledWith("/srv/gone");
  });
});

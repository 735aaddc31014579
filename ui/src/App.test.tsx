import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup } from "@testing-library/react";
import { App } from "./App";
import { applyLanguage } from "./i18n";
import { applyTheme } from "./theme";
import { commands, events, type AppInfo_Serialize, type FileNotice } from "./bindings";
import samples from "./testing/reasons.json";

vi.mock("./bindings", async () =>
  (await import("./testing/bindings")).withCommands({
    appInfo: vi.fn(),
    pendingApprovals: vi.fn(() => Promise.resolve([])),
    servers: vi.fn(() => Promise.resolve([])),
    takeInstallLinks: vi.fn(() => Promise.resolve([])),
    registryUrl: vi.fn(() => Promise.resolve("https://registry.example")),
    registryServers: vi.fn(() => Promise.resolve({ servers: [], nextCursor: null, unreadable: [] })),
    installLinkServer: vi.fn(),
    serverRoots: vi.fn(() => Promise.resolve([])),
    desktopSettings: vi.fn(() =>
      Promise.resolve({
        quitOnClose: false,
        hasTray: true,
        startAtLogin: false,
        autostartEntry: null,
        language: null,
        systemLanguage: "en",
        theme: null,
      }),
    ),
  }),
);

const info: AppInfo_Serialize = {
  name: "Switchboard",
  version: "9.8.7",
  configPath: "/home/ada/.config/switchboard/config.json",
  configProblem: null,
  auditNotices: [],
  protocolRevisions: ["2026-07-28", "2025-11-25"],
};

afterEach(cleanup);

describe("the app shell", () => {
  it("speaks the language chosen in the settings, else the system's as the host tells it", async () => {
    vi.mocked(commands.appInfo).mockResolvedValue(info);
    const chosen = (language: "zh-CN" | null, systemLanguage: "en" | "zh-CN" = "en") => ({
      quitOnClose: false,
      hasTray: true,
      startAtLogin: false,
      autostartEntry: null,
      language,
      systemLanguage,
      theme: null,
    });
    vi.mocked(commands.desktopSettings).mockResolvedValue(chosen("zh-CN"));
    render(<App />);
    expect(await screen.findByRole("heading", { level: 1, name: "服务器" })).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "主导航" })).toBeTruthy();
    expect(document.documentElement.lang).toBe("zh-CN");
    cleanup();
    vi.mocked(commands.desktopSettings).mockResolvedValue(chosen(null));
    render(<App />);
    expect(await screen.findByRole("heading", { level: 1, name: "Servers" })).toBeTruthy();
    expect(document.documentElement.lang).toBe("en");
    // None chosen, on a system the host says speaks Chinese: Chinese, as the tray.
    cleanup();
    vi.mocked(commands.desktopSettings).mockResolvedValue(chosen(null, "zh-CN"));
    render(<App />);
    expect(await screen.findByRole("heading", { level: 1, name: "服务器" })).toBeTruthy();
    // The tests after this one start in English, on an English system.
    vi.mocked(commands.desktopSettings).mockResolvedValue(chosen(null));
    act(() => applyLanguage(null, "en"));
  });

  it("shows the colours chosen in the settings from the start", async () => {
    vi.mocked(commands.appInfo).mockResolvedValue(info);
    const settings = await commands.desktopSettings();
    vi.mocked(commands.desktopSettings).mockResolvedValueOnce({ ...settings, theme: "dark" });
    render(<App />);
    await screen.findByRole("heading", { level: 1, name: "Servers" });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    act(() => applyTheme(null));
  });

  it("shows the registry when a switchboard://install link opened the app, and why a link is refused", async () => {
    vi.mocked(commands.appInfo).mockResolvedValue(info);
    const link = "switchboard://install?name=a.b/c&registry=https://evil.example";
    vi.mocked(commands.takeInstallLinks).mockResolvedValueOnce([link]);
    vi.mocked(commands.installLinkServer).mockRejectedValue({
      code: "invalid",
      message: 'the link says "registry", which no install link says: it is not followed',
    });
    render(<App />);
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Registry"));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(link);
    expect(alert.textContent).toContain('could not be opened: the link says "registry"');
    expect(commands.installLinkServer).toHaveBeenCalledWith(link);
  });


  it("offers every view and switches between them", async () => {
    vi.mocked(commands.appInfo).mockResolvedValue(info);
    render(<App />);
    const nav = screen.getByRole("navigation", { name: "Main" });
    const labels = within(nav)
      .getAllByRole("button")
      .map((b) => b.textContent);
    expect(labels).toEqual(["Servers", "Registry", "Explorer", "Approvals", "Activity", "Tasks", "Trust", "Models", "Chat", "Agents", "Settings"]);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Servers");

    await userEvent.click(within(nav).getByRole("button", { name: "Approvals" }));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Approvals");
    expect(within(nav).getByRole("button", { name: "Approvals" }).getAttribute("aria-current")).toBe("page");
    expect(within(nav).getByRole("button", { name: "Servers" }).getAttribute("aria-current")).toBeNull();
  });

  it("shows the version and config path the host reports", async () => {
    vi.mocked(commands.appInfo).mockResolvedValue(info);
    render(<App />);
    expect((await screen.findByTestId("config-path")).textContent).toBe(info.configPath);
    expect(screen.getByTestId("app-version").textContent).toBe("Switchboard 9.8.7");
    expect(screen.getByTestId("protocol-revisions").textContent).toBe("MCP 2026-07-28 · 2025-11-25");
  });

  it("says what the host had to do about a file it keeps", async () => {
    const { notice, text } = samples.fileNotices[0] as { notice: FileNotice; text: string };
    vi.mocked(commands.appInfo).mockResolvedValue({ ...info, auditNotices: [notice] });
    render(<App />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(text);
  });

  it("says what is wrong with the configuration file, and reads it again when it changes", async () => {
    const listeners: Array<(event: { payload: unknown }) => void> = [];
    vi.mocked(events.hostUpdate.listen).mockImplementation((handler) => {
      listeners.push(handler as (event: { payload: unknown }) => void);
      return Promise.resolve(() => {});
    });
    vi.mocked(commands.appInfo)
      .mockResolvedValueOnce({
        ...info,
        configProblem: { kind: "invalid", path: "/home/ada/.config/switchboard/config.json", line: 1, column: 17, message: "expected value" },
      })
      .mockResolvedValue(info);
    render(<App />);
    const problem = await screen.findByTestId("config-problem");
    expect(problem.textContent).toContain(
      "/home/ada/.config/switchboard/config.json is not a valid configuration: expected value (line 1, column 17); the file was left as it is",
    );
    expect(problem.textContent).toContain("The last good configuration keeps running");
    act(() => listeners.forEach((deliver) => deliver({ payload: { kind: "config_changed", problem: null } })));
    await waitFor(() => expect(screen.queryByTestId("config-problem")).toBeNull());
  });

  it("says so when the host answers with an error", async () => {
    vi.mocked(commands.appInfo).mockRejectedValue({ code: "config", message: "no configuration directory" });
    render(<App />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("The host did not answer: no configuration directory");
    expect(screen.queryByTestId("config-path")).toBeNull();
  });

  it("opens the dialog of the request the person asked for from its notification or the tray", async () => {
    vi.mocked(commands.appInfo).mockResolvedValue(info);
    vi.mocked(commands.pendingApprovals).mockResolvedValue([
      { id: 4, server: "files", deadlineMs: Date.now() + 60_000, forward: false, during: [], question: { kind: "roots" } },
    ]);
    const show: Array<(event: { payload: unknown }) => void> = [];
    vi.mocked(events.showRequest.listen).mockImplementation((handler) => {
      show.push(handler as (event: { payload: unknown }) => void);
      return Promise.resolve(() => {});
    });
    render(<App />);
    // Asked on its own, it waits in the queue without a dialog...
    await screen.findByRole("group", { name: "Requests waiting" });
    expect(screen.queryByRole("dialog")).toBeNull();
    // ...until the person clicks its notification.
    act(() => show.forEach((deliver) => deliver({ payload: { id: 4 } })));
    expect((await screen.findByRole("dialog")).textContent).toContain("files");
  });
});

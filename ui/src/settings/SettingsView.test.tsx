import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type DesktopSettings_Serialize } from "../bindings";
import { SettingsView } from "./SettingsView";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({
    desktopSettings: vi.fn(),
    setQuitOnClose: vi.fn(() => Promise.resolve(null)),
    setStartAtLogin: vi.fn(() => Promise.resolve(null)),
    setLanguage: vi.fn(() => Promise.resolve(null)),
    setTheme: vi.fn(() => Promise.resolve(null)),
  }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const stays: DesktopSettings_Serialize = {
  quitOnClose: false,
  hasTray: true,
  startAtLogin: false,
  autostartEntry: "/home/ada/.config/autostart/dev.switchboard.app.desktop",
  language: null,
  systemLanguage: "en",
  theme: null,
};

describe("the settings", () => {
  it("switch the window's language at once, and keep the choice", async () => {
    vi.mocked(commands.desktopSettings).mockResolvedValue(stays);
    render(<SettingsView />);
    const picker = await screen.findByRole("combobox", { name: "The window's language" });
    expect((picker as HTMLSelectElement).value).toBe("system");
    expect(screen.getByRole("option", { name: "The system's (English)" })).toBeTruthy();
    await userEvent.selectOptions(picker, "zh-CN");
    expect(commands.setLanguage).toHaveBeenCalledWith("zh-CN");
    expect(await screen.findByRole("heading", { name: "语言" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "让 Switchboard 继续在托盘中运行" })).toBeTruthy();
    vi.mocked(commands.desktopSettings).mockResolvedValue({ ...stays, language: null });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "窗口语言" }), "system");
    expect(commands.setLanguage).toHaveBeenLastCalledWith(null);
    expect(await screen.findByRole("heading", { name: "Language" })).toBeTruthy();
  });

  it("show the window light or dark at once, as chosen, and the system's again", async () => {
    vi.mocked(commands.desktopSettings).mockResolvedValue(stays);
    render(<SettingsView />);
    const picker = await screen.findByRole("combobox", { name: "The window's colours" });
    expect((picker as HTMLSelectElement).value).toBe("system");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toContain("Dark");
    await userEvent.selectOptions(picker, "dark");
    expect(commands.setTheme).toHaveBeenCalledWith("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    await userEvent.selectOptions(picker, "system");
    expect(commands.setTheme).toHaveBeenLastCalledWith(null);
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it("keep the app in the tray and off at login unless the person chooses otherwise", async () => {
    vi.mocked(commands.desktopSettings).mockResolvedValue(stays);
    render(<SettingsView />);
    const tray = await screen.findByRole("checkbox", { name: "Keep Switchboard running in the tray" });
    const login = screen.getByRole("checkbox", { name: "Start Switchboard in the tray when I log in" });
    expect((tray as HTMLInputElement).checked).toBe(true);
    expect((login as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText("Turning this on writes the autostart entry /home/ada/.config/autostart/dev.switchboard.app.desktop.")).toBeTruthy();

    await userEvent.click(tray);
    expect(commands.setQuitOnClose).toHaveBeenCalledWith(true);
    await userEvent.click(login);
    expect(commands.setStartAtLogin).toHaveBeenCalledWith(true);
  });

  it("say that closing quits where no tray holds the app", async () => {
    vi.mocked(commands.desktopSettings).mockResolvedValue({ ...stays, hasTray: false });
    render(<SettingsView />);
    const tray = await screen.findByRole("checkbox", { name: "Keep Switchboard running in the tray" });
    expect((tray as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText(/closing the window quits it/)).toBeTruthy();
  });

  it("say why a change did not take", async () => {
    vi.mocked(commands.desktopSettings).mockResolvedValue(stays);
    vi.mocked(commands.setStartAtLogin).mockRejectedValueOnce({ code: "system", message: "the autostart folder is read-only" });
    render(<SettingsView />);
    await userEvent.click(await screen.findByRole("checkbox", { name: "Start Switchboard in the tray when I log in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("the autostart folder is read-only");
  });
});

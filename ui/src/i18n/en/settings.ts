/** The app's own settings: its place on the desktop, and the window's language. */
export const settings = {
  "settings.close.title": "When the window closes",
  "settings.close.stay": "Keep Switchboard running in the tray",
  "settings.close.withTray":
    "Your servers stay up for the agents that reach them through Switchboard, and requests that wait for you raise a notification. Quit from the tray's menu.",
  "settings.close.noTray": "This desktop shows no tray icon for Switchboard, so closing the window quits it.",
  "settings.login.title": "When you log in",
  "settings.login.start": "Start Switchboard in the tray when I log in",
  "settings.login.noFolder": "There is no configuration folder here to put an autostart entry in.",
  "settings.login.on": "Through the autostart entry {entry}; turning this off removes it.",
  "settings.login.off": "Turning this on writes the autostart entry {entry}.",
  "settings.language.title": "Language",
  "settings.language.label": "The window's language",
  "settings.language.system": "The system's ({language})",
  "settings.language.note": "Text that servers, models and agents send is shown as they wrote it.",
  "settings.theme.title": "Colours",
  "settings.theme.label": "The window's colours",
  "settings.theme.system": "The system's",
  "settings.theme.light": "Light",
  "settings.theme.dark": "Dark",
} as const;

import { DesktopSettings } from "./DesktopSettings";

/** The app's own settings. */
export function SettingsView() {
  return <DesktopSettings />;
}

import { DesktopSettings } from "../settings/DesktopSettings";

/** The app's own settings. */
export function SettingsView() {
  return <DesktopSettings />;
}

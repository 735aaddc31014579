import { useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import "./settings.css";

/**
 * How the app lives on the desktop: in the tray when its window closes (so that agents keep
 * their servers), or quitting then; and whether it starts, in the tray, when the person logs in.
 */
export function DesktopSettings() {
  const settings = useFetched(() => commands.desktopSettings(), ["config_changed"]);
  const [error, setError] = useState<string | null>(null);
  const current = settings.data;
  if (current === null) return null;
  const change = (done: Promise<unknown>) =>
    done
      .then(
        () => setError(null),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(settings.refresh);
  return (
    <section className="desktop-settings" aria-labelledby="desktop-settings-title">
      <h2 id="desktop-settings-title">When the window closes</h2>
      <div className="setting">
        <input
          id="stay-in-tray"
          type="checkbox"
          checked={!current.quitOnClose}
          disabled={!current.hasTray}
          onChange={(e) => void change(commands.setQuitOnClose(!e.target.checked))}
        />{" "}
        <label htmlFor="stay-in-tray">Keep Switchboard running in the tray</label>
        <p className="muted">
          {current.hasTray
            ? "Your servers stay up for the agents that reach them through Switchboard, and requests that wait for you raise a notification. Quit from the tray's menu."
            : "This desktop shows no tray icon for Switchboard, so closing the window quits it."}
        </p>
      </div>
      <h2>When you log in</h2>
      <div className="setting">
        <input
          id="start-at-login"
          type="checkbox"
          checked={current.startAtLogin}
          onChange={(e) => void change(commands.setStartAtLogin(e.target.checked))}
        />{" "}
        <label htmlFor="start-at-login">Start Switchboard in the tray when I log in</label>
        <p className="muted">
          {current.autostartEntry === null
            ? "There is no configuration folder here to put an autostart entry in."
            : current.startAtLogin
              ? `Through the autostart entry ${current.autostartEntry}; turning this off removes it.`
              : `Turning this on writes the autostart entry ${current.autostartEntry}.`}
        </p>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

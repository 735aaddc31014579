import { useState } from "react";
import { commands, type Theme } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { applyLanguage, LANGUAGE_NAMES, useT, type Locale } from "../i18n";
import { applyTheme } from "../theme";
import "./settings.css";

/**
 * How the app lives on the desktop: in the tray when its window closes (so that agents keep
 * their servers), or quitting then; whether it starts, in the tray, when the person logs in;
 * and the language and colours of its window (the system's unless chosen), changed at once.
 */
export function DesktopSettings() {
  const t = useT();
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
      <h2 id="desktop-settings-title">{t("settings.close.title")}</h2>
      <div className="setting">
        <input
          id="stay-in-tray"
          type="checkbox"
          checked={!current.quitOnClose}
          disabled={!current.hasTray}
          onChange={(e) => void change(commands.setQuitOnClose(!e.target.checked))}
        />{" "}
        <label htmlFor="stay-in-tray">{t("settings.close.stay")}</label>
        <p className="muted">{current.hasTray ? t("settings.close.withTray") : t("settings.close.noTray")}</p>
      </div>
      <h2>{t("settings.login.title")}</h2>
      <div className="setting">
        <input
          id="start-at-login"
          type="checkbox"
          checked={current.startAtLogin}
          onChange={(e) => void change(commands.setStartAtLogin(e.target.checked))}
        />{" "}
        <label htmlFor="start-at-login">{t("settings.login.start")}</label>
        <p className="muted">
          {current.autostartEntry === null
            ? t("settings.login.noFolder")
            : current.startAtLogin
              ? t("settings.login.on", { entry: current.autostartEntry })
              : t("settings.login.off", { entry: current.autostartEntry })}
        </p>
      </div>
      <h2>{t("settings.language.title")}</h2>
      <div className="setting">
        <label htmlFor="language">{t("settings.language.label")}</label>{" "}
        <select
          id="language"
          value={current.language ?? "system"}
          onChange={(e) => {
            const chosen = e.target.value === "system" ? null : (e.target.value as Locale);
            void change(commands.setLanguage(chosen).then(() => applyLanguage(chosen, current.systemLanguage)));
          }}
        >
          <option value="system">{t("settings.language.system", { language: LANGUAGE_NAMES[current.systemLanguage] })}</option>
          {Object.entries(LANGUAGE_NAMES).map(([tag, name]) => (
            <option key={tag} value={tag} lang={tag}>
              {name}
            </option>
          ))}
        </select>
        <p className="muted">{t("settings.language.note")}</p>
      </div>
      <h2>{t("settings.theme.title")}</h2>
      <div className="setting">
        <label htmlFor="theme">{t("settings.theme.label")}</label>{" "}
        <select
          id="theme"
          value={current.theme ?? "system"}
          onChange={(e) => {
            const chosen = e.target.value === "system" ? null : (e.target.value as Theme);
            void change(commands.setTheme(chosen).then(() => applyTheme(chosen)));
          }}
        >
          <option value="system">{t("settings.theme.system")}</option>
          <option value="light">{t("settings.theme.light")}</option>
          <option value="dark">{t("settings.theme.dark")}</option>
        </select>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

import { useEffect } from "react";
import { commands } from "../bindings";
import { useFetched } from "../host/updates";
import { applyLanguage } from "../i18n";
import { applyTheme } from "../theme";

/**
 * Speaks the language and shows the colours the person chose in the settings (kept in the
 * configuration), or the system's (the language as the host tells it, so that the window
 * and the tray agree), from the start and whenever the configuration changes. A host that
 * does not answer leaves the browser's guess.
 */
export function useDesktopChoices() {
  const settings = useFetched(() => commands.desktopSettings(), ["config_changed"]);
  const data = settings.data;
  useEffect(() => {
    if (!data) return;
    applyLanguage(data.language, data.systemLanguage);
    applyTheme(data.theme);
  }, [data]);
}

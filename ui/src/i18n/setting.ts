import { useEffect } from "react";
import { commands } from "../bindings";
import { useFetched } from "../host/updates";
import { applyLanguage } from ".";

/**
 * Speaks the language the person chose in the settings (kept in the configuration), or the
 * system's as the host tells it (so that the window and the tray agree), from the start and
 * whenever the configuration changes. A host that does not answer leaves the browser's
 * guess.
 */
export function useLanguageSetting() {
  const settings = useFetched(() => commands.desktopSettings(), ["config_changed"]);
  const data = settings.data;
  useEffect(() => {
    if (data) applyLanguage(data.language, data.systemLanguage);
  }, [data]);
}

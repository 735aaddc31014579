/**
 * The window's colours: the system's (the CSS follows `prefers-color-scheme`), unless the
 * person chose light or dark in the settings, set on the root element for the CSS to take
 * (`color-scheme`, and with it every colour token's `light-dark()`).
 */
import { useSyncExternalStore } from "react";
import type { Theme } from "./bindings";

/** Said on the window whenever the chosen colours change. */
const CHANGED = "switchboard-theme";

export function applyTheme(theme: Theme | null) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  window.dispatchEvent(new Event(CHANGED));
}

/** The colours the window shows now, chosen or the system's (a server's view is told them). */
export function shownTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The colours the window shows, rendered again when they change (chosen, or the system's). */
export function useShownTheme(): Theme {
  return useSyncExternalStore(subscribe, shownTheme);
}

function subscribe(changed: () => void): () => void {
  const system = window.matchMedia?.("(prefers-color-scheme: dark)");
  window.addEventListener(CHANGED, changed);
  system?.addEventListener?.("change", changed);
  return () => {
    window.removeEventListener(CHANGED, changed);
    system?.removeEventListener?.("change", changed);
  };
}

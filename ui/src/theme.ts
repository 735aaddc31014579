/**
 * The window's colours: the system's (the CSS follows `prefers-color-scheme`), unless the
 * person chose light or dark in the settings, set on the root element for the CSS to take
 * (`color-scheme`, and with it every colour token's `light-dark()`).
 */
import type { Theme } from "./bindings";

export function applyTheme(theme: Theme | null) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

/** The colours the window shows now, chosen or the system's (a server's view is told them). */
export function shownTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

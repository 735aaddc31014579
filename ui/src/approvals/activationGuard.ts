import { useEffect, useLayoutEffect, useState, type CSSProperties } from "react";
import { useWindowReturn } from "../windowReturn";

/** How long a request dialog ignores the person after it appears or changes. */
export const ACTIVATION_DELAY_MS = 700;

export interface ActivationGuard {
  /** Whether the dialog may be acted on. */
  armed: boolean;
  /**
   * The props of a button that says yes: disabled, with a visible cue, while the guard
   * holds; `blocked` keeps it disabled for a reason of the dialog's own.
   */
  accepting(blocked?: boolean): { disabled: boolean; "data-arming"?: ""; style?: CSSProperties };
  /** The action Enter runs (the Modal's `onPrimary`): none while the guard holds. */
  primary<F>(action: F | undefined): F | undefined;
}

/**
 * Guards a dialog that opened on its own, as a server's request does, against a click or a
 * key meant for what was there before: for a moment after it appears, after `content`
 * changes (another request in its place, or the request itself changed) and after the
 * window comes back to the front, its accepting buttons are disabled and Enter does nothing.
 * `content` names what the dialog shows, e.g. its request as JSON.
 */
export function useActivationGuard(content: string, delayMs = ACTIVATION_DELAY_MS): ActivationGuard {
  const [returns, setReturns] = useState(0);
  useWindowReturn(() => setReturns((n) => n + 1));

  // Armed for one showing only: a new content or a return starts the wait again, at once
  // in the same render, so that no frame shows the new content armed.
  const [shown, setShown] = useState({ content, returns, armed: false });
  const current = shown.content === content && shown.returns === returns;
  if (!current) setShown({ content, returns, armed: false });
  useEffect(() => {
    const timer = setTimeout(
      () => setShown((s) => (s.content === content && s.returns === returns ? { ...s, armed: true } : s)),
      delayMs,
    );
    return () => clearTimeout(timer);
  }, [content, returns, delayMs]);
  const armed = current && shown.armed;

  // A focused button that turns disabled would drop the focus out of the dialog, and Esc and
  // Tab with it: the dialog itself takes it.
  useLayoutEffect(() => {
    if (armed) return;
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && focused.hasAttribute("data-arming")) {
      focused.closest<HTMLElement>("[role=dialog]")?.focus();
    }
  }, [armed]);

  return {
    armed,
    accepting: (blocked = false) =>
      armed
        ? { disabled: blocked }
        : { disabled: true, "data-arming": "", style: { "--arming-ms": `${delayMs}ms` } as CSSProperties },
    primary: (action) => (armed ? action : undefined),
  };
}

/** The `content` of a guard: what a dialog shows, as one string. */
export function contentKey(...parts: unknown[]): string {
  return JSON.stringify(parts);
}

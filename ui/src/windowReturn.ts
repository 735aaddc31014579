import { useEffect, useRef } from "react";

/**
 * Calls `onReturn` each time the window comes back to the person: it takes the focus again,
 * or its page is shown again after being hidden (minimized, another workspace).
 */
export function useWindowReturn(onReturn: () => void): void {
  const latest = useRef(onReturn);
  latest.current = onReturn;
  useEffect(() => {
    const focused = () => latest.current();
    const shown = () => {
      if (document.visibilityState === "visible") latest.current();
    };
    window.addEventListener("focus", focused);
    document.addEventListener("visibilitychange", shown);
    return () => {
      window.removeEventListener("focus", focused);
      document.removeEventListener("visibilitychange", shown);
    };
  }, []);
}

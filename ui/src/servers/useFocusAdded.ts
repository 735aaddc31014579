import { useEffect, useRef } from "react";

/**
 * For list editors: after `markAdded(i)`, the control registered for row `i` gets focus on
 * the next render, so a keyboard user lands in the row they just added.
 */
export function useFocusAdded<T extends HTMLElement>() {
  const controls = useRef(new Map<number, T>());
  const pending = useRef<number | null>(null);
  useEffect(() => {
    if (pending.current === null) return;
    controls.current.get(pending.current)?.focus();
    pending.current = null;
  });
  return {
    register: (i: number) => (el: T | null) => {
      if (el) controls.current.set(i, el);
      else controls.current.delete(i);
    },
    markAdded: (i: number) => {
      pending.current = i;
    },
  };
}

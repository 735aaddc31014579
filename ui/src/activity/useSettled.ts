import { useEffect, useState } from "react";

/**
 * `value` once it has stayed the same for `ms`: a search typed letter by letter asks the host once
 * the person pauses, not once per letter (a search that finds nothing reads the whole audit file).
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

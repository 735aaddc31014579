import { useState } from "react";
import { sameJson } from "./validate";

/**
 * Text the person is typing for a value that is not text (a number, a list). The typed
 * text is kept while it still means the current value ("1." while typing "1.5"), and
 * replaced when the value changes from outside.
 */
export function useDraft<T>(value: T, format: (value: T) => string, parse: (text: string) => T) {
  const [draft, setDraft] = useState(() => format(value));
  const text = sameJson(parse(draft), value) ? draft : format(value);
  const edit = (next: string): T => {
    setDraft(next);
    return parse(next);
  };
  return [text, edit] as const;
}

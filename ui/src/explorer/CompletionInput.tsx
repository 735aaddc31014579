import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useT } from "../i18n";
import "./explorer.css";

interface Props {
  label: string;
  value: string;
  onChange(v: string): void;
  /** Asks the server for suggestions for a value; may reject (then there are simply none). */
  complete(value: string): Promise<string[]>;
  id: string;
  required?: boolean;
  description?: string;
}

/** Waits this long after the last keystroke before asking, so a server is not asked per key. */
const DEBOUNCE_MS = 150;
/** The protocol caps an answer at 100 values; a misbehaving server is held to it here. */
const MAX_SUGGESTIONS = 100;

/** A text field that offers the server's completions in a list (ARIA combobox pattern). */
export function CompletionInput({ label, value, onChange, complete, id, required, description }: Props) {
  const t = useT();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Only the newest request may answer; older answers arrive to a changed value.
  const latest = useRef(0);
  // The caller may pass a new function every render; asking must not depend on that.
  const completeRef = useRef(complete);
  useEffect(() => {
    completeRef.current = complete;
  });

  /** Forgets any question still out: its answer would come too late to be wanted. */
  const stopAsking = () => {
    clearTimeout(timer.current);
    latest.current++;
  };
  useEffect(() => stopAsking, []);

  const ask = (text: string) => {
    clearTimeout(timer.current);
    const request = ++latest.current;
    timer.current = setTimeout(() => {
      completeRef.current(text).then(
        (values) => {
          if (request !== latest.current || !Array.isArray(values)) return;
          const shown = values.filter((v): v is string => typeof v === "string").slice(0, MAX_SUGGESTIONS);
          setSuggestions(shown);
          setActive(-1);
          // A single suggestion equal to what is typed has nothing to offer.
          setOpen(shown.length > 0 && !(shown.length === 1 && shown[0] === text));
        },
        () => {},
      );
    }, DEBOUNCE_MS);
  };

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const pick = (suggestion: string) => {
    stopAsking();
    onChange(suggestion);
    close();
  };

  const listId = `${id}-suggestions`;
  const optionId = (index: number) => `${id}-suggestion-${index}`;
  const shown = open && suggestions.length > 0;

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (count === 0) return;
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setOpen(true);
      setActive((current) => (current === -1 ? (step === 1 ? 0 : count - 1) : (current + step + count) % count));
    } else if (e.key === "Enter" && shown && active >= 0) {
      e.preventDefault();
      const suggestion = suggestions[active];
      if (suggestion !== undefined) pick(suggestion);
    } else if (e.key === "Escape" && shown) {
      // Closing the list is all Escape does here; a surrounding dialog stays open.
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  return (
    <div className="completion">
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {description && (
        <span id={`${id}-description`} className="completion-description">
          {description}
        </span>
      )}
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={shown ? listId : undefined}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        aria-describedby={description ? `${id}-description` : undefined}
        aria-required={required || undefined}
        required={required}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          ask(e.target.value);
        }}
        onFocus={() => ask(value)}
        onBlur={() => {
          stopAsking();
          close();
        }}
        onKeyDown={onKeyDown}
      />
      {shown && (
        <ul id={listId} role="listbox" aria-label={t("explorer.completion.suggestions", { label })} className="completion-list">
          {suggestions.map((suggestion, index) => (
            <li
              key={index}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // Keep the focus in the field, so the click lands before blur closes the list.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(suggestion)}
            >
              {suggestion}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

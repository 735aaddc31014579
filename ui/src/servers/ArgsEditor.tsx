import { useId } from "react";
import type { ServerFormErrors } from "./serverFormModel";
import { FieldError, describedBy } from "./FieldError";
import { useFocusAdded } from "./useFocusAdded";
import { useT } from "../i18n";

export interface ArgsEditorProps {
  args: string[];
  onChange(args: string[]): void;
  errors: ServerFormErrors;
}

/**
 * One argument per row, passed exactly as typed: no shell splits or unquotes them, so
 * "my file.txt" in a row is one argument with a space in it.
 */
export function ArgsEditor({ args, onChange, errors }: ArgsEditorProps) {
  const t = useT();
  const baseId = useId();
  const focus = useFocusAdded<HTMLInputElement>();
  const insertAfter = (i: number) => {
    focus.markAdded(i + 1);
    onChange([...args.slice(0, i + 1), "", ...args.slice(i + 1)]);
  };

  return (
    <fieldset className="args-editor">
      <legend>{t("serverForm.args.legend")}</legend>
      <p className="hint">{t("serverForm.args.hint")}</p>
      {args.length > 0 && (
        <ol>
          {args.map((arg, i) => {
            const error = errors[`args.${i}`];
            const errorId = `${baseId}-${i}-error`;
            return (
              <li key={i} className="arg-row">
                <input
                  ref={focus.register(i)}
                  aria-label={t("serverForm.args.argument", { number: i + 1 })}
                  value={arg}
                  spellCheck={false}
                  autoComplete="off"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy(error && errorId)}
                  onChange={(e) => onChange(args.map((a, j) => (j === i ? e.target.value : a)))}
                  onKeyDown={(e) => {
                    if (e.key !== "Enter") return;
                    e.preventDefault(); // a new row, not a submitted form
                    insertAfter(i);
                  }}
                />
                <button type="button" aria-label={t("serverForm.args.remove", { number: i + 1 })} onClick={() => onChange(args.filter((_, j) => j !== i))}>
                  {t("serverForm.rows.remove")}
                </button>
                <FieldError id={errorId} message={error} />
              </li>
            );
          })}
        </ol>
      )}
      <button type="button" onClick={() => insertAfter(args.length - 1)}>
        {t("serverForm.args.add")}
      </button>
    </fieldset>
  );
}

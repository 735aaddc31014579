import { useId } from "react";
import type { KeyValue_Serialize as KeyValue } from "../bindings";
import type { RowKind, ServerFormErrors } from "./serverFormModel";
import { FieldError, describedBy } from "./FieldError";
import { useFocusAdded } from "./useFocusAdded";

const WORDS: Record<RowKind, { legend: string; noun: string; hint: string }> = {
  env: {
    legend: "Environment variables",
    noun: "variable",
    hint: "Given to the server's process. Secret values go to the OS keyring, never into the configuration file.",
  },
  headers: {
    legend: "HTTP headers",
    noun: "header",
    hint: "Sent with every request, e.g. Authorization. Secret values go to the OS keyring, never into the configuration file.",
  },
};

export interface KeyValueRowsProps {
  kind: RowKind;
  rows: KeyValue[];
  onChange(rows: KeyValue[]): void;
  errors: ServerFormErrors;
}

/** Name/value rows (env vars or headers), each of which may be kept in the keyring. */
export function KeyValueRows({ kind, rows, onChange, errors }: KeyValueRowsProps) {
  const { legend, noun, hint } = WORDS[kind];
  const baseId = useId();
  const focus = useFocusAdded<HTMLInputElement>();
  const update = (i: number, change: Partial<KeyValue>) => onChange(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  const add = () => {
    focus.markAdded(rows.length);
    onChange([...rows, { key: "", value: "", secret: false, stored: false }]);
  };

  return (
    <fieldset className="kv-rows">
      <legend>{legend}</legend>
      <p className="hint">{hint}</p>
      {rows.map((row, i) => {
        const id = `${baseId}-${i}`;
        const keyError = errors[`${kind}.${i}.key`];
        const valueError = errors[`${kind}.${i}.value`];
        const keepsStored = row.secret && row.stored === true;
        return (
          <div key={i} className="kv-row" role="group" aria-label={`${capitalize(noun)} ${i + 1}`}>
            <input
              ref={focus.register(i)}
              aria-label="Name"
              className="kv-key"
              value={row.key}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={keyError ? true : undefined}
              aria-describedby={describedBy(keyError && `${id}-key-error`)}
              onChange={(e) => update(i, { key: e.target.value })}
            />
            <input
              aria-label="Value"
              className="kv-value"
              type={row.secret ? "password" : "text"}
              value={row.value}
              spellCheck={false}
              autoComplete="off"
              placeholder={keepsStored ? "•••••• (stored)" : undefined}
              aria-invalid={valueError ? true : undefined}
              aria-describedby={describedBy(keepsStored && `${id}-stored`, valueError && `${id}-value-error`)}
              onChange={(e) => update(i, { value: e.target.value })}
            />
            <label className="switch">
              <input type="checkbox" role="switch" checked={row.secret} onChange={(e) => update(i, { secret: e.target.checked })} />
              <span>Store in keyring</span>
            </label>
            <button type="button" aria-label={`Remove ${noun} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Remove
            </button>
            {keepsStored && (
              <p id={`${id}-stored`} className="hint kv-wide">
                Stored in the keyring; leave empty to keep.
              </p>
            )}
            <FieldError id={`${id}-key-error`} message={keyError} />
            <FieldError id={`${id}-value-error`} message={valueError} />
          </div>
        );
      })}
      <button type="button" onClick={add}>
        Add {noun}
      </button>
    </fieldset>
  );
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

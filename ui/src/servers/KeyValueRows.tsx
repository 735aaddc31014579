import { useId } from "react";
import type { KeyValue_Serialize as KeyValue } from "../bindings";
import type { RowKind, ServerFormErrors } from "./serverFormModel";
import { FieldError, describedBy } from "./FieldError";
import { useFocusAdded } from "./useFocusAdded";
import { useT, type MessageId } from "../i18n";

/** Each kind's words: its legend and hint, a row's name and its remove button (numbered), the add button. */
const WORDS: Record<RowKind, { legend: MessageId; hint: MessageId; row: MessageId; remove: MessageId; add: MessageId }> = {
  env: {
    legend: "serverForm.env.legend",
    hint: "serverForm.env.hint",
    row: "serverForm.env.row",
    remove: "serverForm.env.remove",
    add: "serverForm.env.add",
  },
  headers: {
    legend: "serverForm.headers.legend",
    hint: "serverForm.headers.hint",
    row: "serverForm.headers.row",
    remove: "serverForm.headers.remove",
    add: "serverForm.headers.add",
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
  const t = useT();
  const words = WORDS[kind];
  const baseId = useId();
  const focus = useFocusAdded<HTMLInputElement>();
  const update = (i: number, change: Partial<KeyValue>) => onChange(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  const add = () => {
    focus.markAdded(rows.length);
    onChange([...rows, { key: "", value: "", secret: false, stored: false }]);
  };

  return (
    <fieldset className="kv-rows">
      <legend>{t(words.legend)}</legend>
      <p className="hint">{t(words.hint)}</p>
      {rows.map((row, i) => {
        const id = `${baseId}-${i}`;
        const keyError = errors[`${kind}.${i}.key`];
        const valueError = errors[`${kind}.${i}.value`];
        const keepsStored = row.secret && row.stored === true;
        return (
          <div key={i} className="kv-row" role="group" aria-label={t(words.row, { number: i + 1 })}>
            <input
              ref={focus.register(i)}
              aria-label={t("serverForm.rows.name")}
              className="kv-key"
              value={row.key}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={keyError ? true : undefined}
              aria-describedby={describedBy(keyError && `${id}-key-error`)}
              onChange={(e) => update(i, { key: e.target.value })}
            />
            <input
              aria-label={t("serverForm.rows.value")}
              className="kv-value"
              type={row.secret ? "password" : "text"}
              value={row.value}
              spellCheck={false}
              autoComplete="off"
              placeholder={keepsStored ? t("serverForm.rows.storedPlaceholder") : undefined}
              aria-invalid={valueError ? true : undefined}
              aria-describedby={describedBy(keepsStored && `${id}-stored`, valueError && `${id}-value-error`)}
              onChange={(e) => update(i, { value: e.target.value })}
            />
            <label className="switch">
              <input type="checkbox" role="switch" checked={row.secret} onChange={(e) => update(i, { secret: e.target.checked })} />
              <span>{t("serverForm.rows.storeInKeyring")}</span>
            </label>
            <button type="button" aria-label={t(words.remove, { number: i + 1 })} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              {t("serverForm.rows.remove")}
            </button>
            {keepsStored && (
              <p id={`${id}-stored`} className="hint kv-wide">
                {t("serverForm.secret.stored")}
              </p>
            )}
            <FieldError id={`${id}-key-error`} message={keyError} />
            <FieldError id={`${id}-value-error`} message={valueError} />
          </div>
        );
      })}
      <button type="button" onClick={add}>
        {t(words.add)}
      </button>
    </fieldset>
  );
}

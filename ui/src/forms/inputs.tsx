import { useT } from "../i18n";
import { EXAMPLE } from "./formats";
import type { Choice } from "./schemaModel";
import { sameJson } from "./validate";
import { useDraft } from "./useDraft";

/** What every input of a field shares: its id, and the ids of its help and error text. */
export interface InputProps<T> {
  id: string;
  value: T;
  /** `undefined` means the person left the field empty: the key is left out. */
  onChange(value: T | undefined): void;
  required: boolean;
  describedBy: string | undefined;
  invalid: boolean;
}

function aria({ required, describedBy, invalid }: InputProps<unknown>) {
  return {
    "aria-required": required || undefined,
    "aria-describedby": describedBy,
    "aria-invalid": invalid || undefined,
  };
}

const INPUT_TYPE: Record<string, string> = { email: "email", uri: "url" };
const PLACEHOLDER: Record<string, string> = EXAMPLE;

export function TextInput(props: InputProps<unknown> & { format: string | undefined }) {
  const { id, value, onChange, format } = props;
  return (
    <input
      id={id}
      className="form-input"
      type={(format && INPUT_TYPE[format]) ?? "text"}
      placeholder={format ? PLACEHOLDER[format] : undefined}
      value={typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value)}
      onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
      {...aria(props)}
    />
  );
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Text that is not a number is kept as typed, so `validate` can say so instead of losing it. */
function parseNumber(text: string): unknown {
  const t = text.trim();
  if (t === "") return undefined;
  return NUMBER.test(t) ? Number(t) : text;
}

function formatScalar(value: unknown): string {
  return value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
}

export function NumberInput(props: InputProps<unknown> & { integer: boolean }) {
  const [text, edit] = useDraft(props.value, formatScalar, parseNumber);
  return (
    <input
      id={props.id}
      className="form-input form-number"
      type="text"
      inputMode={props.integer ? "numeric" : "decimal"}
      value={text}
      onChange={(e) => props.onChange(edit(e.target.value))}
      {...aria(props)}
    />
  );
}

export function CheckboxInput(props: InputProps<unknown>) {
  return (
    <input
      id={props.id}
      type="checkbox"
      checked={props.value === true}
      onChange={(e) => props.onChange(e.target.checked)}
      {...aria(props)}
    />
  );
}

export function SelectInput(props: InputProps<unknown> & { choices: Choice[] }) {
  const { id, value, onChange, choices } = props;
  const t = useT();
  const index = choices.findIndex((c) => sameJson(c.value, value));
  return (
    <select
      id={id}
      className="form-input"
      value={index < 0 ? "" : String(index)}
      onChange={(e) => onChange(e.target.value === "" ? undefined : choices[Number(e.target.value)]?.value)}
      {...aria(props)}
    >
      <option value="">{t("forms.input.choose")}</option>
      {choices.map((choice, i) => (
        <option key={i} value={String(i)}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/** Several choices as checkboxes; the chosen values keep the order of the options. */
export function ChoiceBoxes(props: InputProps<unknown> & { choices: Choice[] }) {
  const { id, value, onChange, choices } = props;
  const chosen = Array.isArray(value) ? value : [];
  const toggle = (choice: Choice, on: boolean) => {
    const next = choices
      .map((c) => c.value)
      .filter((v) => (sameJson(v, choice.value) ? on : chosen.some((x) => sameJson(x, v))));
    onChange(next.length > 0 ? next : undefined);
  };
  return (
    <div className="form-choices">
      {choices.map((choice, i) => (
        <label key={i} className="form-check">
          <input
            id={`${id}-${i}`}
            type="checkbox"
            checked={chosen.some((x) => sameJson(x, choice.value))}
            onChange={(e) => toggle(choice, e.target.checked)}
            aria-invalid={props.invalid || undefined}
          />
          {choice.label}
        </label>
      ))}
    </div>
  );
}

/** A list of plain values, one per line. */
export function ListInput(props: InputProps<unknown> & { item: "string" | "number" | "integer" }) {
  const t = useT();
  const numeric = props.item !== "string";
  const parse = (text: string): unknown => {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    if (lines.length === 0) return undefined;
    return numeric ? lines.map(parseNumber) : lines;
  };
  const format = (value: unknown) => (Array.isArray(value) ? value.map(formatScalar).join("\n") : "");
  const [text, edit] = useDraft(props.value, format, parse);
  return (
    <textarea
      id={props.id}
      className="form-input form-list"
      rows={3}
      value={text}
      placeholder={t("forms.input.onePerLine")}
      onChange={(e) => props.onChange(edit(e.target.value))}
      {...aria(props)}
    />
  );
}

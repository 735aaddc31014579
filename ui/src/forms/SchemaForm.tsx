import { useMemo, useState } from "react";
import { useLocale, useT } from "../i18n";
import type { Tool } from "../mcp/schema";
import { FieldView, fieldId, withKey } from "./FieldView";
import { JsonEditor } from "./JsonEditor";
import { brokenJson, jsonErrorOf, parseJsonObject, prettyJson } from "./rawJson";
import { fieldOf, formBlockers, propertiesOf, requiredOf, type JsonSchema } from "./schemaModel";
import "./forms.css";

export { defaultsOf } from "./defaults";
export { validate } from "./validate";

export interface SchemaFormProps {
  schema: Tool["inputSchema"] | JsonSchema;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  /** Messages by field path, as `validate` returns them ("" for raw JSON that does not parse). */
  errors?: Record<string, string>;
  /** Makes element ids unique when several forms are on screen. */
  idPrefix: string;
  /** Offer the "Raw JSON" switch; the raw editor still appears when the form cannot show the schema. */
  allowRaw?: boolean;
}

/** A form generated from a JSON Schema, with raw JSON for what a form cannot show. */
export function SchemaForm({ schema, value, onChange, errors = {}, idPrefix, allowRaw = true }: SchemaFormProps) {
  const t = useT();
  // The reasons are sentences in the window's language: said again when it changes.
  const locale = useLocale();
  const blockers = useMemo(() => formBlockers(schema), [schema, locale]);
  const [rawChosen, setRawChosen] = useState(false);
  const raw = blockers.length > 0 || rawChosen;
  const broken = jsonErrorOf(value) !== undefined;
  const toggleId = fieldId(idPrefix, "raw-toggle");

  return (
    <div className="schema-form">
      {blockers.length === 0 && (allowRaw || rawChosen) && (
        <div className="form-raw-toggle">
          <input
            id={toggleId}
            type="checkbox"
            checked={rawChosen}
            disabled={rawChosen && broken}
            onChange={(e) => setRawChosen(e.target.checked)}
          />
          <label htmlFor={toggleId}>{t("forms.raw.toggle")}</label>
          {rawChosen && broken && <span className="form-help">{t("forms.raw.fixToGoBack")}</span>}
        </div>
      )}
      {raw ? (
        <RawEditor idPrefix={idPrefix} value={value} onChange={onChange} errors={errors} blockers={blockers} />
      ) : (
        <FormFields schema={schema} value={value} onChange={onChange} errors={errors} idPrefix={idPrefix} />
      )}
    </div>
  );
}

function FormFields({ schema, value, onChange, errors, idPrefix }: Required<Omit<SchemaFormProps, "allowRaw">>) {
  const t = useT();
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const shown = new Set(properties.flatMap(([name, prop]) => pathsOf(name, prop)));
  const others = Object.entries(errors).filter(([path]) => path !== "" && !shown.has(path));
  return (
    <div className="form-fields">
      {properties.length === 0 && <p className="form-help">{t("forms.fields.none")}</p>}
      <ErrorList errors={others} />
      {properties.map(([name, prop]) => (
        <FieldView
          key={name}
          name={name}
          path={name}
          schema={prop}
          required={required.includes(name)}
          value={value[name]}
          onChange={(next) => onChange(withKey(value, name, next))}
          errors={errors}
          idPrefix={idPrefix}
        />
      ))}
    </div>
  );
}

/** The error keys a property's inputs show next to themselves. */
function pathsOf(name: string, schema: JsonSchema): string[] {
  const field = fieldOf(schema);
  if (field.kind !== "object") return [name];
  return [name, ...field.properties.map(([inner]) => `${name}.${inner}`)];
}

interface RawEditorProps {
  idPrefix: string;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  errors: Record<string, string>;
  blockers: string[];
}

function RawEditor({ idPrefix, value, onChange, errors, blockers }: RawEditorProps) {
  const t = useT();
  const [text, setText] = useState(() => prettyJson(value));
  // The value this editor last produced; any other value came from outside and replaces the text.
  const [own, setOwn] = useState(value);
  if (value !== own && jsonErrorOf(value) === undefined) {
    setOwn(value);
    setText(prettyJson(value));
  }
  const edit = (next: string) => {
    const parsed = parseJsonObject(next);
    const produced = parsed.ok ? parsed.value : brokenJson(parsed.error);
    setText(next);
    setOwn(produced);
    onChange(produced);
  };
  // Only the text as it is now tells whether it parses; a caller's "" error may be stale.
  const parseError = jsonErrorOf(value);
  const fieldErrors = Object.entries(errors).filter(([path]) => path !== "");
  return (
    <div className="form-raw">
      {blockers.length > 0 && (
        <div className="form-help">
          <p>{t("forms.raw.whyRaw")}</p>
          <ul>
            {blockers.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorList errors={fieldErrors} />
      <JsonEditor id={fieldId(idPrefix, "raw-json")} label="JSON" text={text} onText={edit} error={parseError} />
    </div>
  );
}

function ErrorList({ errors }: { errors: Array<[string, string]> }) {
  const t = useT();
  if (errors.length === 0) return null;
  return (
    <ul className="form-error-list">
      {errors.map(([path, message]) => (
        <li key={path} className="form-error">
          {path === "" ? message : t("forms.errors.atPath", { path, message })}
        </li>
      ))}
    </ul>
  );
}

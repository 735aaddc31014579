import type { ReactNode } from "react";
import { CheckboxInput, ChoiceBoxes, ListInput, NumberInput, SelectInput, TextInput, type InputProps } from "./inputs";
import { fieldOf, labelOf, type Field, type JsonSchema } from "./schemaModel";
import { isPlainObject } from "./validate";

export interface FieldViewProps {
  /** The property's name in its object. */
  name: string;
  /** The key of its error: "name", or "parent.child" inside a nested object. */
  path: string;
  schema: JsonSchema;
  required: boolean;
  value: unknown;
  onChange(value: unknown): void;
  errors: Record<string, string>;
  idPrefix: string;
  depth?: number;
}

/** Element ids may not hold spaces; names from a schema may. */
export function fieldId(idPrefix: string, path: string): string {
  return `${idPrefix}-${path}`.replace(/[^\w-]/g, "_");
}

/** One property of a schema: its label, help text, input and error message. */
export function FieldView(props: FieldViewProps) {
  const { name, path, schema, required, value, onChange, errors, idPrefix, depth = 0 } = props;
  const field = fieldOf(schema, depth);
  const id = fieldId(idPrefix, path);
  const label = labelOf(name, schema);
  const error = errors[path];
  const description = typeof schema.description === "string" && schema.description !== "" ? schema.description : null;
  const describedBy = [description && `${id}-help`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const input: InputProps<unknown> = { id, value, onChange, required, describedBy, invalid: error !== undefined };

  const help = (
    <>
      {description && (
        <p id={`${id}-help`} className="form-help">
          {description}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </>
  );
  const title = <FieldLabel label={label} required={required} />;

  switch (field.kind) {
    case "boolean":
      return (
        <div className="form-field">
          <label className="form-check" htmlFor={id}>
            <CheckboxInput {...input} />
            {title}
          </label>
          {help}
        </div>
      );
    case "multiselect":
    case "object":
      return (
        <fieldset className="form-field form-group" aria-describedby={describedBy}>
          <legend>{title}</legend>
          {help}
          {field.kind === "multiselect" ? (
            <ChoiceBoxes {...input} choices={field.choices} />
          ) : (
            <NestedFields {...props} field={field} />
          )}
        </fieldset>
      );
    default:
      return (
        <div className="form-field">
          <label htmlFor={id}>{title}</label>
          {inputFor(field, input)}
          {help}
        </div>
      );
  }
}

function FieldLabel({ label, required }: { label: string; required: boolean }) {
  return (
    <span className="form-label">
      {label}
      {required && (
        <span className="form-required" aria-hidden="true">
          {" *"}
        </span>
      )}
    </span>
  );
}

function inputFor(field: Field, input: InputProps<unknown>): ReactNode {
  switch (field.kind) {
    case "text":
      return <TextInput {...input} format={field.format} />;
    case "number":
      return <NumberInput {...input} integer={field.integer} />;
    case "select":
      return <SelectInput {...input} choices={field.choices} />;
    case "list":
      return <ListInput {...input} item={field.item} />;
    default:
      // The form is replaced by raw JSON before an unsupported field is ever shown.
      return null;
  }
}

function NestedFields(props: FieldViewProps & { field: Extract<Field, { kind: "object" }> }) {
  const { field, value, onChange, path, required } = props;
  const object = isPlainObject(value) ? value : {};
  return (
    <div className="form-nested">
      {field.properties.map(([name, schema]) => (
        <FieldView
          key={name}
          name={name}
          path={`${path}.${name}`}
          schema={schema}
          required={field.required.includes(name)}
          value={object[name]}
          onChange={(next) => {
            const updated = withKey(object, name, next);
            // An optional object nobody filled in is left out, like an empty field.
            onChange(Object.keys(updated).length === 0 && !required ? undefined : updated);
          }}
          errors={props.errors}
          idPrefix={props.idPrefix}
          depth={(props.depth ?? 0) + 1}
        />
      ))}
    </div>
  );
}

/** A copy of `object` with `key` set, or removed when the value is undefined. */
export function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...object };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

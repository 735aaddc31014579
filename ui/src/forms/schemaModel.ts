/**
 * Reads a JSON Schema into the fields a form can show. Anything the form cannot show
 * faithfully is reported as `unsupported` with a reason, so the caller falls back to
 * raw JSON instead of silently dropping part of the schema.
 */

import { t, type MessageId } from "../i18n";

export type JsonSchema = Record<string, unknown>;

/** One option of a select: the value sent, and the text shown. */
export interface Choice {
  value: unknown;
  label: string;
}

export type Field =
  | { kind: "text"; format: string | undefined }
  | { kind: "number"; integer: boolean }
  | { kind: "boolean" }
  | { kind: "select"; choices: Choice[] }
  | { kind: "multiselect"; choices: Choice[] }
  | { kind: "list"; item: "string" | "number" | "integer" }
  | { kind: "object"; properties: Array<[string, JsonSchema]>; required: string[] }
  | { kind: "unsupported"; reason: Reason };

/**
 * Why a field cannot be shown: the message that says so of a field (its `field` argument
 * the field's label), and the one that says so of the whole schema when it can be.
 */
export interface Reason {
  field: MessageId;
  schema?: MessageId;
  /** The JSON type named in the message, if it names one. */
  type?: string;
}

/** Keywords whose meaning a generated form cannot represent. */
const UNSHOWABLE: Array<[string, Reason]> = [
  ["$ref", { field: "forms.field.ref", schema: "forms.schema.ref" }],
  ["allOf", { field: "forms.field.allOf", schema: "forms.schema.allOf" }],
  ["anyOf", { field: "forms.field.anyOf", schema: "forms.schema.anyOf" }],
  ["oneOf", { field: "forms.field.oneOf", schema: "forms.schema.oneOf" }],
  ["not", { field: "forms.field.not", schema: "forms.schema.not" }],
  ["if", { field: "forms.field.if", schema: "forms.schema.if" }],
  ["patternProperties", { field: "forms.field.patternProperties", schema: "forms.schema.patternProperties" }],
  ["dependentSchemas", { field: "forms.field.dependentSchemas", schema: "forms.schema.dependentSchemas" }],
];

export function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/** The one non-null type a schema declares; undefined when it declares none or several. */
export function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== "null");
    if (real.length === 1 && typeof real[0] === "string") return real[0];
    return undefined;
  }
  if (schema.properties !== undefined) return "object";
  return undefined;
}

export function allowsNull(schema: JsonSchema): boolean {
  return schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"));
}

/** The fixed options of a schema: `enum` (with legacy `enumNames`), `oneOf`/`anyOf` of consts, or one `const`. */
export function choicesOf(schema: JsonSchema): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => {
      const name = names[i];
      return { value, label: typeof name === "string" ? name : display(value) };
    });
  }
  for (const key of ["oneOf", "anyOf"]) {
    const options = schema[key];
    if (!Array.isArray(options) || options.length === 0) continue;
    const consts = options.map(asSchema);
    if (consts.every((o) => o !== undefined && "const" in o)) {
      return consts.map((o) => ({
        value: o?.const,
        label: typeof o?.title === "string" ? o.title : display(o?.const),
      }));
    }
  }
  if ("const" in schema) return [{ value: schema.const, label: display(schema.const) }];
  return undefined;
}

function display(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function unshowable(schema: JsonSchema): Reason | undefined {
  return UNSHOWABLE.find(([key]) => key in schema)?.[1];
}

export function propertiesOf(schema: JsonSchema): Array<[string, JsonSchema]> {
  const properties = asSchema(schema.properties);
  if (!properties) return [];
  return Object.entries(properties).map(([name, prop]) => [name, asSchema(prop) ?? {}]);
}

export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
}

export function labelOf(name: string, schema: JsonSchema): string {
  return typeof schema.title === "string" && schema.title.trim() !== "" ? schema.title : name;
}

const unsupported = (field: MessageId, type?: string): Field => ({
  kind: "unsupported",
  reason: type === undefined ? { field } : { field, type },
});

/** How one property is shown; `depth` > 0 inside a nested object, which may not nest again. */
export function fieldOf(schema: JsonSchema, depth = 0): Field {
  const type = typeOf(schema);
  if (type === "array") return arrayFieldOf(schema);
  const choices = choicesOf(schema);
  if (choices) return { kind: "select", choices };
  const blocked = unshowable(schema);
  if (blocked) return { kind: "unsupported", reason: blocked };
  switch (type) {
    case "string":
      return { kind: "text", format: typeof schema.format === "string" ? schema.format : undefined };
    case "number":
    case "integer":
      return { kind: "number", integer: type === "integer" };
    case "boolean":
      return { kind: "boolean" };
    case "object":
      return objectFieldOf(schema, depth);
    case undefined:
      return unsupported(Array.isArray(schema.type) ? "forms.field.severalTypes" : "forms.field.anyType");
    default:
      return unsupported("forms.field.ofType", type);
  }
}

function arrayFieldOf(schema: JsonSchema): Field {
  const items = asSchema(schema.items);
  if (!items) return unsupported("forms.field.listOfAny");
  const choices = choicesOf(items);
  if (choices) return { kind: "multiselect", choices };
  const item = typeOf(items);
  if (unshowable(items) || item === undefined) return unsupported("forms.field.listOfMixed");
  if (item === "string" || item === "number" || item === "integer") return { kind: "list", item };
  return item === "object" ? unsupported("forms.field.listOfObjects") : unsupported("forms.field.listOfType", item);
}

function objectFieldOf(schema: JsonSchema, depth: number): Field {
  if (depth > 0) return unsupported("forms.field.tooDeep");
  const properties = propertiesOf(schema);
  if (properties.length === 0) return unsupported("forms.field.anyShape");
  for (const [, prop] of properties) {
    const inner = fieldOf(prop, depth + 1);
    if (inner.kind === "unsupported") return inner;
  }
  return { kind: "object", properties, required: requiredOf(schema) };
}

/** Why a form cannot show this schema, in the window's language now; empty when it can. */
export function formBlockers(schema: JsonSchema): string[] {
  const blocked = unshowable(schema);
  if (blocked?.schema) return [t(blocked.schema)];
  const type = typeOf(schema);
  if (type !== undefined && type !== "object") return [t("forms.schema.single", { type })];
  return propertiesOf(schema).flatMap(([name, prop]) => {
    const field = fieldOf(prop);
    if (field.kind !== "unsupported") return [];
    return [t(field.reason.field, { field: labelOf(name, prop), type: field.reason.type })];
  });
}

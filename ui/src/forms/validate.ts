import { t } from "../i18n";
import { EXAMPLE, isDate, isDateTime, isEmail, isUri } from "./formats";
import { jsonErrorOf } from "./rawJson";
import { allowsNull, asSchema, choicesOf, propertiesOf, requiredOf, typeOf, type JsonSchema } from "./schemaModel";

/**
 * Checks a value against its schema before it is sent. Returns a readable message per
 * field path ("name", or "parent.child" inside a nested object), in the window's language
 * at the time of the check, and one under "" when the raw JSON does not parse. Empty when
 * the value may go.
 */
export function validate(schema: JsonSchema, value: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  const broken = jsonErrorOf(value);
  if (broken !== undefined) {
    errors[""] = broken;
    return errors;
  }
  checkObject(schema, value, "", errors);
  return errors;
}

function checkObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  prefix: string,
  errors: Record<string, string>,
) {
  const properties = propertiesOf(schema);
  for (const [name, prop] of properties) {
    const path = prefix + name;
    const v = value[name];
    if (v === undefined || v === "") continue;
    if (typeOf(prop) === "object" && isPlainObject(v)) {
      checkObject(prop, v, `${path}.`, errors);
      continue;
    }
    const problem = checkValue(prop, v);
    if (problem) errors[path] = problem;
  }
  for (const name of requiredOf(schema)) {
    if (value[name] === undefined || value[name] === "") errors[prefix + name] = t("forms.check.required");
  }
  if (schema.additionalProperties === false) {
    const known = new Set(properties.map(([name]) => name));
    for (const name of Object.keys(value)) {
      if (!known.has(name)) errors[prefix + name] = t("forms.check.unknownField");
    }
  }
}

/** The message for one value that does not fit its schema, if any. */
export function checkValue(schema: JsonSchema, value: unknown): string | undefined {
  if (value === null) return allowsNull(schema) ? undefined : t("forms.check.notNull");
  const type = typeOf(schema);
  if (type === "array") return checkArray(schema, value);
  const choices = choicesOf(schema);
  if (choices) return choices.some((c) => sameJson(c.value, value)) ? undefined : t("forms.check.chooseOption");
  switch (type) {
    case "string":
      return typeof value === "string" ? checkString(schema, value) : t("forms.check.text");
    case "number":
    case "integer":
      return checkNumber(schema, value, type === "integer");
    case "boolean":
      return typeof value === "boolean" ? undefined : t("forms.check.boolean");
    case "object":
      return isPlainObject(value) ? undefined : t("forms.check.object");
    default:
      return undefined;
  }
}

function checkString(schema: JsonSchema, value: string): string | undefined {
  const length = [...value].length;
  const min = numberOr(schema.minLength);
  const max = numberOr(schema.maxLength);
  if (min !== undefined && length < min) return t("forms.check.minLength", { count: min });
  if (max !== undefined && length > max) return t("forms.check.maxLength", { count: max });
  switch (schema.format) {
    case "email":
      if (!isEmail(value)) return t("forms.check.email");
      break;
    case "uri":
      if (!isUri(value)) return t("forms.check.uri", { example: EXAMPLE.uri });
      break;
    case "date":
      if (!isDate(value)) return t("forms.check.date", { example: EXAMPLE.date });
      break;
    case "date-time":
      if (!isDateTime(value)) return t("forms.check.dateTime", { example: EXAMPLE["date-time"] });
      break;
  }
  if (typeof schema.pattern === "string") {
    const pattern = compile(schema.pattern);
    if (pattern && !pattern.test(value)) return t("forms.check.pattern", { pattern: schema.pattern });
  }
  return undefined;
}

function checkNumber(schema: JsonSchema, value: unknown, integer: boolean): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return integer ? t("forms.check.wholeNumber") : t("forms.check.number");
  }
  if (integer && !Number.isInteger(value)) return t("forms.check.wholeNumber");
  const min = numberOr(schema.minimum);
  const max = numberOr(schema.maximum);
  const above = numberOr(schema.exclusiveMinimum);
  const below = numberOr(schema.exclusiveMaximum);
  const step = numberOr(schema.multipleOf);
  // Bounds are written as the schema has them (65535, 0.5), like the pattern: the schema's own words.
  if (min !== undefined && value < min) return t("forms.check.minimum", { min: String(min) });
  if (max !== undefined && value > max) return t("forms.check.maximum", { max: String(max) });
  if (above !== undefined && value <= above) return t("forms.check.exclusiveMinimum", { min: String(above) });
  if (below !== undefined && value >= below) return t("forms.check.exclusiveMaximum", { max: String(below) });
  if (step !== undefined && step > 0 && !Number.isInteger(Number((value / step).toFixed(9)))) {
    return t("forms.check.multipleOf", { step: String(step) });
  }
  return undefined;
}

function checkArray(schema: JsonSchema, value: unknown): string | undefined {
  if (!Array.isArray(value)) return t("forms.check.list");
  const items = asSchema(schema.items);
  const choosing = items !== undefined && choicesOf(items) !== undefined;
  if (items) {
    for (const [i, item] of value.entries()) {
      if (choosing && !choicesOf(items)?.some((c) => sameJson(c.value, item))) {
        return t("forms.check.notAnOption", { item: String(item) });
      }
      const problem = checkValue(items, item);
      if (problem) return t("forms.check.item", { index: String(i + 1), problem });
    }
  }
  const min = numberOr(schema.minItems);
  const max = numberOr(schema.maxItems);
  if (min !== undefined && value.length < min) {
    return choosing ? t("forms.check.chooseAtLeast", { min: String(min) }) : t("forms.check.minItems", { count: min });
  }
  if (max !== undefined && value.length > max) {
    return choosing ? t("forms.check.chooseAtMost", { max: String(max) }) : t("forms.check.maxItems", { count: max });
  }
  if (schema.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) {
    return t("forms.check.repeated");
  }
  return undefined;
}

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined; // a pattern this engine cannot read: the server checks it
    }
  }
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

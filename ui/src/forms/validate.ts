import { isDate, isDateTime, isEmail, isUri } from "./formats";
import { jsonErrorOf } from "./rawJson";
import { allowsNull, asSchema, choicesOf, propertiesOf, requiredOf, typeOf, type JsonSchema } from "./schemaModel";

/**
 * Checks a value against its schema before it is sent. Returns a readable message per
 * field path ("name", or "parent.child" inside a nested object), and one under "" when
 * the raw JSON does not parse. Empty when the value may go.
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
    if (value[name] === undefined || value[name] === "") errors[prefix + name] = "Required";
  }
  if (schema.additionalProperties === false) {
    const known = new Set(properties.map(([name]) => name));
    for (const name of Object.keys(value)) {
      if (!known.has(name)) errors[prefix + name] = "Not a field of this form";
    }
  }
}

/** The message for one value that does not fit its schema, if any. */
export function checkValue(schema: JsonSchema, value: unknown): string | undefined {
  if (value === null) return allowsNull(schema) ? undefined : "Must not be empty (null)";
  const type = typeOf(schema);
  if (type === "array") return checkArray(schema, value);
  const choices = choicesOf(schema);
  if (choices) return choices.some((c) => sameJson(c.value, value)) ? undefined : "Choose one of the options";
  switch (type) {
    case "string":
      return typeof value === "string" ? checkString(schema, value) : "Must be text";
    case "number":
    case "integer":
      return checkNumber(schema, value, type === "integer");
    case "boolean":
      return typeof value === "boolean" ? undefined : "Must be true or false";
    case "object":
      return isPlainObject(value) ? undefined : "Must be an object";
    default:
      return undefined;
  }
}

function checkString(schema: JsonSchema, value: string): string | undefined {
  const length = [...value].length;
  const min = numberOr(schema.minLength);
  const max = numberOr(schema.maxLength);
  if (min !== undefined && length < min) return `At least ${min} ${plural(min, "character")}`;
  if (max !== undefined && length > max) return `At most ${max} ${plural(max, "character")}`;
  switch (schema.format) {
    case "email":
      if (!isEmail(value)) return "Enter a valid email address";
      break;
    case "uri":
      if (!isUri(value)) return "Enter a full address, such as https://example.com";
      break;
    case "date":
      if (!isDate(value)) return "Enter a date such as 2025-01-31";
      break;
    case "date-time":
      if (!isDateTime(value)) return "Enter a date and time such as 2025-01-31T09:30:00Z";
      break;
  }
  if (typeof schema.pattern === "string") {
    const pattern = compile(schema.pattern);
    if (pattern && !pattern.test(value)) return `Must match the pattern ${schema.pattern}`;
  }
  return undefined;
}

function checkNumber(schema: JsonSchema, value: unknown, integer: boolean): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return integer ? "Enter a whole number" : "Enter a number";
  if (integer && !Number.isInteger(value)) return "Enter a whole number";
  const min = numberOr(schema.minimum);
  const max = numberOr(schema.maximum);
  const above = numberOr(schema.exclusiveMinimum);
  const below = numberOr(schema.exclusiveMaximum);
  const step = numberOr(schema.multipleOf);
  if (min !== undefined && value < min) return `Must be at least ${min}`;
  if (max !== undefined && value > max) return `Must be at most ${max}`;
  if (above !== undefined && value <= above) return `Must be more than ${above}`;
  if (below !== undefined && value >= below) return `Must be less than ${below}`;
  if (step !== undefined && step > 0 && !Number.isInteger(Number((value / step).toFixed(9)))) {
    return `Must be a multiple of ${step}`;
  }
  return undefined;
}

function checkArray(schema: JsonSchema, value: unknown): string | undefined {
  if (!Array.isArray(value)) return "Must be a list";
  const items = asSchema(schema.items);
  const choosing = items !== undefined && choicesOf(items) !== undefined;
  if (items) {
    for (const [i, item] of value.entries()) {
      if (choosing && !choicesOf(items)?.some((c) => sameJson(c.value, item))) {
        return `“${String(item)}” is not one of the options`;
      }
      const problem = checkValue(items, item);
      if (problem) return `Item ${i + 1}: ${problem}`;
    }
  }
  const min = numberOr(schema.minItems);
  const max = numberOr(schema.maxItems);
  if (min !== undefined && value.length < min)
    return choosing ? `Choose at least ${min}` : `At least ${min} ${plural(min, "item")}`;
  if (max !== undefined && value.length > max)
    return choosing ? `Choose at most ${max}` : `At most ${max} ${plural(max, "item")}`;
  if (schema.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) {
    return "Items must not repeat";
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

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

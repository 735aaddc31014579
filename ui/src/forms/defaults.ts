import { propertiesOf, requiredOf, typeOf, type JsonSchema } from "./schemaModel";

/**
 * The value a form starts with: every declared `default` (or a lone `const`). A required
 * boolean without a default starts as false, since its unchecked box already reads "no".
 */
export function defaultsOf(schema: JsonSchema): Record<string, unknown> {
  const required = requiredOf(schema);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of propertiesOf(schema)) {
    const value = defaultOf(prop, required.includes(name));
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function defaultOf(prop: JsonSchema, required: boolean): unknown {
  if (prop.default !== undefined) return copy(prop.default);
  if (prop.const !== undefined) return copy(prop.const);
  const type = typeOf(prop);
  if (type === "boolean" && required) return false;
  if (type === "object") {
    const nested = defaultsOf(prop);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  return undefined;
}

/** Defaults come from the server: copy them so edits never reach the schema object. */
function copy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

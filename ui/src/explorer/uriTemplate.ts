/**
 * RFC 6570 URI templates with string values: every operator, prefix (`{x:3}`) and explode
 * (`{x*}`, which changes nothing for a string) modifier. An empty value counts as not given,
 * since that is what an empty field means: `{?q,page}` with only q filled gives `?q=...`.
 */

interface Operator {
  first: string;
  separator: string;
  /** `name=value` pairs rather than bare values */
  named: boolean;
  /** What a named variable with an empty value leaves (only `;` drops the `=`). */
  ifEmpty: string;
  /** Reserved characters and %-escapes pass through instead of being encoded. */
  allowReserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", allowReserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", allowReserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", allowReserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", allowReserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", allowReserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", allowReserved: false },
};

interface VariableSpec {
  name: string;
  /** Keep only this many characters of the value. */
  prefix?: number;
}

interface Expression {
  operator: string;
  variables: VariableSpec[];
}

type Part = string | Expression;

function parseVariable(spec: string): VariableSpec {
  const prefixed = /^(.*):(\d+)$/.exec(spec);
  if (prefixed?.[1] !== undefined && prefixed[2] !== undefined) {
    return { name: prefixed[1], prefix: Number(prefixed[2]) };
  }
  return { name: spec.endsWith("*") ? spec.slice(0, -1) : spec };
}

/** Literal text and `{...}` expressions, in order; an unclosed brace is literal text. */
function parse(template: string): Part[] {
  const parts: Part[] = [];
  const pattern = /\{([^{}]*)\}/g;
  let last = 0;
  for (const match of template.matchAll(pattern)) {
    if (match.index > last) parts.push(template.slice(last, match.index));
    last = match.index + match[0].length;
    const body = match[1] ?? "";
    const operator = body.charAt(0) in OPERATORS && body.charAt(0) !== "" ? body.charAt(0) : "";
    const variables = body
      .slice(operator.length)
      .split(",")
      .map((spec) => parseVariable(spec.trim()))
      .filter((v) => v.name !== "");
    parts.push({ operator, variables });
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}

export interface TemplateVariable {
  name: string;
  /** Query variables (`{?x}`, `{&x}`) may be left out; the others make up the resource's path. */
  optional: boolean;
}

/** Each variable of the template once, in order of first appearance. */
export function templateFields(template: string): TemplateVariable[] {
  const seen = new Map<string, TemplateVariable>();
  for (const part of parse(template)) {
    if (typeof part === "string") continue;
    const optional = part.operator === "?" || part.operator === "&";
    for (const { name } of part.variables) {
      const known = seen.get(name);
      if (!known) seen.set(name, { name, optional });
      else if (!optional) known.optional = false;
    }
  }
  return [...seen.values()];
}

/** The names of the template's variables, each once, in order of first appearance. */
export function templateVariables(template: string): string[] {
  return templateFields(template).map((field) => field.name);
}

/** The URI the template gives for these values. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return parse(template)
    .map((part) => (typeof part === "string" ? part : expand(part, values)))
    .join("");
}

function expand({ operator, variables }: Expression, values: Record<string, string>): string {
  const op = OPERATORS[operator] ?? (OPERATORS[""] as Operator);
  const pieces = variables.flatMap(({ name, prefix }) => {
    const value = values[name];
    if (value === undefined || value === "") return [];
    const kept = prefix === undefined ? value : [...value].slice(0, prefix).join("");
    const encoded = encode(kept, op.allowReserved);
    if (!op.named) return [encoded];
    return [encoded === "" ? `${name}${op.ifEmpty}` : `${name}=${encoded}`];
  });
  return pieces.length === 0 ? "" : op.first + pieces.join(op.separator);
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const PERCENT_ESCAPE = /^%[0-9A-Fa-f]{2}/;

function encode(value: string, allowReserved: boolean): string {
  let out = "";
  let i = 0;
  for (const char of value) {
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) out += char;
    else if (allowReserved && char === "%" && PERCENT_ESCAPE.test(value.slice(i))) out += char;
    else out += percentEncode(char);
    i += char.length;
  }
  return out;
}

function percentEncode(char: string): string {
  return Array.from(new TextEncoder().encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import type { ElicitRequestFormParams } from "../mcp/schema";
import { defaultsOf } from "./defaults";
import { brokenJson, parseJsonObject } from "./rawJson";
import { formBlockers } from "./schemaModel";
import { validate } from "./validate";

const contact: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 3, maxLength: 10 },
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    born: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    age: { type: "integer", minimum: 18, maximum: 130 },
    ratio: { type: "number", maximum: 10 },
    color: {
      type: "string",
      oneOf: [
        { const: "#f00", title: "Red" },
        { const: "#0f0", title: "Green" },
      ],
    },
    size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"] },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2 },
    news: { type: "boolean", default: true },
  },
  required: ["name", "email"],
};

describe("validate", () => {
  it("asks for required fields", () => {
    expect(validate(contact, {})).toEqual({ name: "Required", email: "Required" });
    expect(validate(contact, { name: "", email: "a@b.co" })).toEqual({ name: "Required" });
  });

  it("explains lengths, formats and bounds in plain words", () => {
    const errors = validate(contact, {
      name: "Al",
      email: "not-an-email",
      site: "example.com",
      born: "2025-02-30",
      at: "2025-01-31 09:30",
      age: 17.5,
      ratio: 11,
    });
    expect(errors).toEqual({
      name: "At least 3 characters",
      email: "Enter a valid email address",
      site: "Enter a full address, such as https://example.com",
      born: "Enter a date such as 2025-01-31",
      at: "Enter a date and time such as 2025-01-31T09:30:00Z",
      age: "Enter a whole number",
      ratio: "Must be at most 10",
    });
    expect(validate(contact, { name: "Ada Lovelace!", email: "ada@example.org", age: 12 })).toEqual({
      name: "At most 10 characters",
      age: "Must be at least 18",
    });
  });

  it("checks choices and the number of choices", () => {
    expect(validate(contact, { name: "Ada", email: "ada@example.org", color: "#00f", size: "xl" })).toEqual({
      color: "Choose one of the options",
      size: "Choose one of the options",
    });
    expect(validate(contact, { name: "Ada", email: "ada@example.org", tags: ["a", "b", "c"] })).toEqual({
      tags: "Choose at most 2",
    });
    expect(validate(contact, { name: "Ada", email: "ada@example.org", tags: ["d"] })).toEqual({
      tags: "“d” is not one of the options",
    });
  });

  it("accepts a value that fits", () => {
    const value = {
      name: "Ada",
      email: "ada@example.org",
      site: "https://example.org/x",
      born: "2024-02-29",
      at: "2025-01-31T09:30:00+01:00",
      age: 36,
      ratio: 2.5,
      color: "#0f0",
      size: "m",
      tags: ["a", "c"],
      news: false,
    };
    expect(validate(contact, value)).toEqual({});
  });

  it("says a number typed as text is not a number", () => {
    expect(validate({ type: "object", properties: { n: { type: "number" } } }, { n: "12a" })).toEqual({
      n: "Enter a number",
    });
  });

  it("checks patterns, nested objects, lists and unknown fields", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: {
        code: { type: "string", pattern: "^[A-Z]{3}$" },
        address: {
          type: "object",
          properties: { city: { type: "string" }, zip: { type: "string", minLength: 5 } },
          required: ["city"],
        },
        ports: { type: "array", items: { type: "integer", maximum: 65535 }, minItems: 1 },
      },
    };
    expect(validate(schema, { code: "abc", address: { zip: "12" }, ports: [80, 70000], extra: 1 })).toEqual({
      code: "Must match the pattern ^[A-Z]{3}$",
      "address.city": "Required",
      "address.zip": "At least 5 characters",
      ports: "Item 2: Must be at most 65535",
      extra: "Not a field of this form",
    });
  });

  it("reports raw JSON that does not parse under the empty key", () => {
    const errors = validate(contact, brokenJson("Not valid JSON: unexpected end"));
    expect(errors).toEqual({ "": "Not valid JSON: unexpected end" });
  });
});

describe("defaultsOf", () => {
  it("pre-fills declared defaults and leaves the rest out", () => {
    expect(defaultsOf(contact)).toEqual({ news: true });
    const schema = {
      type: "object",
      properties: {
        count: { type: "integer", default: 3 },
        tags: { type: "array", items: { type: "string" }, default: ["x"] },
        confirm: { type: "boolean" },
        mode: { const: "fast" },
        nested: { type: "object", properties: { deep: { type: "string", default: "d" } } },
      },
      required: ["confirm"],
    };
    const defaults = defaultsOf(schema);
    expect(defaults).toEqual({ count: 3, tags: ["x"], confirm: false, mode: "fast", nested: { deep: "d" } });
    (defaults.tags as string[]).push("changed");
    expect(schema.properties.tags.default).toEqual(["x"]);
  });
});

describe("formBlockers", () => {
  it("lets a form show primitives, selects, lists and simple nested objects", () => {
    expect(formBlockers(contact)).toEqual([]);
    expect(
      formBlockers({
        type: "object",
        properties: {
          list: { type: "array", items: { type: "number" } },
          point: { type: "object", properties: { x: { type: "number" } } },
          maybe: { type: ["string", "null"] },
        },
      }),
    ).toEqual([]);
  });

  it("names what a form cannot show", () => {
    expect(
      formBlockers({
        type: "object",
        properties: {
          ref: { $ref: "#/$defs/thing" },
          either: { anyOf: [{ type: "string" }, { type: "object" }] },
          rows: { type: "array", items: { type: "object", properties: {} } },
          anything: {},
        },
      }),
    ).toEqual([
      "“ref” refers to another schema ($ref).",
      "“either” allows one of several shapes (anyOf).",
      "“rows” is a list of objects.",
      "“anything” takes a value of any type.",
    ]);
    expect(formBlockers({ allOf: [{ type: "object" }] })).toEqual(["The schema combines schemas (allOf)."]);
  });
});

describe("in Chinese", () => {
  afterEach(() => applyLanguage("en"));

  it("explains what to fix as a Chinese reader would, quoting the schema's own values", () => {
    applyLanguage("zh-CN");
    expect(validate(contact, { name: "Al", site: "example.com", age: 12, tags: ["a", "b", "c"] })).toEqual({
      name: "至少 3 个字符",
      email: "必填",
      site: "请输入完整的地址，例如 https://example.com",
      age: "不能小于 18",
      tags: "最多只能选择 2 项",
    });
    const ports = {
      type: "object",
      properties: { ports: { type: "array", items: { type: "integer", maximum: 9 }, maxItems: 1 } },
    };
    expect(validate(ports, { ports: [1, 10] })).toEqual({ ports: "第 2 项：不能大于 9" });
    expect(validate(ports, { ports: [1, 2] })).toEqual({ ports: "最多 1 项" });
  });

  it("says why JSON is refused, and why a form cannot show a schema", () => {
    applyLanguage("zh-CN");
    expect(parseJsonObject("[1]")).toEqual({ ok: false, error: '必须是一个 JSON 对象，例如 { "name": "value" }' });
    const broken = parseJsonObject("{");
    expect(!broken.ok && broken.error).toMatch(/^不是有效的 JSON：/);
    expect(
      formBlockers({
        type: "object",
        properties: { rows: { type: "array", items: { type: "object" } }, when: { type: "null", title: "When" } },
      }),
    ).toEqual(["“rows”是对象的列表。", "“When”接受 null 类型的值。"]);
    expect(formBlockers({ oneOf: [{ type: "object" }] })).toEqual(["该 schema 允许多种结构之一（oneOf）。"]);
    expect(formBlockers({ type: "array" })).toEqual(["该 schema 描述的是单个 array 值，而不是具名字段。"]);
  });
});

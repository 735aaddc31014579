import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import type { Tool } from "../mcp/schema";
import { SchemaForm, defaultsOf, validate } from "./SchemaForm";

afterEach(cleanup);

/** A form held by a caller that validates on "Check", as the dialogs and views do. */
function Harness({ schema, initial }: { schema: Tool["inputSchema"]; initial?: Record<string, unknown> }) {
  const [value, setValue] = useState(initial ?? defaultsOf(schema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <>
      <SchemaForm schema={schema} value={value} onChange={setValue} errors={errors} idPrefix="t" />
      <button onClick={() => setErrors(validate(schema, value))}>Check</button>
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

const shownValue = () => JSON.parse(screen.getByTestId("value").textContent ?? "null") as unknown;

/** The text an element's aria-describedby points to. */
function description(element: HTMLElement): string {
  return (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ")
    .trim();
}

const search: Tool["inputSchema"] = {
  type: "object",
  properties: {
    query: { type: "string", title: "Query", description: "What to look for", minLength: 3 },
    limit: { type: "integer", title: "Limit", default: 10, minimum: 1, maximum: 50 },
    exact: { type: "boolean", title: "Exact match" },
    sort: {
      type: "string",
      title: "Sort",
      oneOf: [
        { const: "new", title: "Newest" },
        { const: "top", title: "Best" },
      ],
    },
    sources: { type: "array", title: "Sources", items: { type: "string", enum: ["web", "news", "docs"] } },
    words: { type: "array", title: "Excluded words", items: { type: "string" } },
    near: {
      type: "object",
      title: "Near",
      properties: { lat: { type: "number", title: "Latitude" }, lon: { type: "number", title: "Longitude" } },
    },
  },
  required: ["query"],
};

describe("SchemaForm", () => {
  it("shows a labelled input per field with defaults, required marks and help text", () => {
    render(<Harness schema={search} />);
    const query = screen.getByRole("textbox", { name: "Query" });
    expect(query.getAttribute("aria-required")).toBe("true");
    expect(description(query)).toBe("What to look for");
    expect(screen.getByRole("textbox", { name: "Limit" })).toHaveProperty("value", "10");
    expect(screen.getByRole("textbox", { name: "Limit" }).getAttribute("aria-required")).toBeNull();
    expect(screen.getByRole("checkbox", { name: "Exact match" })).toHaveProperty("checked", false);
    expect(screen.getByRole("combobox", { name: "Sort" })).toBeTruthy();
    const sources = screen.getByRole("group", { name: "Sources" });
    expect(
      within(sources)
        .getAllByRole("checkbox")
        .map((b) => b.parentElement?.textContent),
    ).toEqual(["web", "news", "docs"]);
    expect(within(screen.getByRole("group", { name: "Near" })).getByRole("textbox", { name: "Latitude" })).toBeTruthy();
    expect(shownValue()).toEqual({ limit: 10 });
  });

  it("turns what the person enters into typed values, leaving empty fields out", async () => {
    const user = userEvent.setup();
    render(<Harness schema={search} />);
    await user.type(screen.getByRole("textbox", { name: "Query" }), "rust mcp");
    await user.clear(screen.getByRole("textbox", { name: "Limit" }));
    await user.type(screen.getByRole("textbox", { name: "Limit" }), "25");
    await user.click(screen.getByRole("checkbox", { name: "Exact match" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort" }), "Best");
    await user.click(screen.getByRole("checkbox", { name: "docs" }));
    await user.click(screen.getByRole("checkbox", { name: "web" }));
    await user.type(screen.getByRole("textbox", { name: "Excluded words" }), "spam{Enter}ads");
    await user.type(screen.getByRole("textbox", { name: "Latitude" }), "-1.5");
    expect(shownValue()).toEqual({
      query: "rust mcp",
      limit: 25,
      exact: true,
      sort: "top",
      sources: ["web", "docs"],
      words: ["spam", "ads"],
      near: { lat: -1.5 },
    });

    await user.clear(screen.getByRole("textbox", { name: "Query" }));
    await user.click(screen.getByRole("checkbox", { name: "web" }));
    await user.click(screen.getByRole("checkbox", { name: "docs" }));
    await user.clear(screen.getByRole("textbox", { name: "Latitude" }));
    expect(shownValue()).toEqual({ limit: 25, exact: true, sort: "top", words: ["spam", "ads"] });
  });

  it("shows each error next to its field", async () => {
    const user = userEvent.setup();
    render(<Harness schema={search} />);
    await user.clear(screen.getByRole("textbox", { name: "Limit" }));
    await user.type(screen.getByRole("textbox", { name: "Limit" }), "ten");
    await user.type(screen.getByRole("textbox", { name: "Longitude" }), "500x");
    await user.click(screen.getByRole("button", { name: "Check" }));
    expect(description(screen.getByRole("textbox", { name: "Query" }))).toBe("What to look for Required");
    expect(description(screen.getByRole("textbox", { name: "Limit" }))).toBe("Enter a whole number");
    expect(screen.getByRole("textbox", { name: "Limit" }).getAttribute("aria-invalid")).toBe("true");
    expect(description(screen.getByRole("textbox", { name: "Longitude" }))).toBe("Enter a number");
  });

  it("edits the value as raw JSON, and keeps JSON that does not parse as an error", async () => {
    const user = userEvent.setup();
    render(<Harness schema={search} initial={{ query: "abc" }} />);
    await user.click(screen.getByRole("checkbox", { name: "Raw JSON" }));
    const editor = screen.getByRole("textbox", { name: "JSON" });
    expect(JSON.parse((editor as HTMLTextAreaElement).value)).toEqual({ query: "abc" });

    await user.clear(editor);
    await user.type(editor, '{{"query": "xyz", "limit": 3}');
    expect(shownValue()).toEqual({ query: "xyz", limit: 3 });

    await user.type(editor, "{Backspace}");
    expect(description(editor)).toMatch(/^Not valid JSON/);
    expect(editor.getAttribute("aria-invalid")).toBe("true");
    // Going back to the form would lose the text: it waits until the JSON is fixed.
    expect(screen.getByRole("checkbox", { name: "Raw JSON" })).toHaveProperty("disabled", true);
    await user.click(screen.getByRole("button", { name: "Check" }));
    expect(description(editor)).toMatch(/^Not valid JSON/);

    await user.type(editor, "}");
    expect(description(editor)).toBe("");
    await user.click(screen.getByRole("checkbox", { name: "Raw JSON" }));
    expect(screen.getByRole("textbox", { name: "Query" })).toHaveProperty("value", "xyz");
  });

  it("falls back to raw JSON, and says why, when the form cannot show the schema", async () => {
    const user = userEvent.setup();
    const schema: Tool["inputSchema"] = {
      type: "object",
      properties: {
        name: { type: "string" },
        rows: { type: "array", items: { type: "object", properties: { id: { type: "number" } } } },
      },
      required: ["rows"],
    };
    render(<Harness schema={schema} />);
    expect(screen.queryByRole("checkbox", { name: "Raw JSON" })).toBeNull();
    expect(screen.getByText("“rows” is a list of objects.")).toBeTruthy();
    const editor = screen.getByRole("textbox", { name: "JSON" });
    await user.clear(editor);
    await user.type(editor, '{{"name": "x"}');
    await user.click(screen.getByRole("button", { name: "Check" }));
    expect(screen.getByText("rows: Required")).toBeTruthy();
  });
});

describe("SchemaForm in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the schema's own titles, and says what to fix", async () => {
    const user = userEvent.setup();
    act(() => applyLanguage("zh-CN"));
    render(<Harness schema={search} />);
    // The schema's titles and options are the server's words: never translated.
    const sort = screen.getByRole("combobox", { name: "Sort" });
    expect(within(sort).getAllByRole("option").map((o) => o.textContent)).toEqual(["— 请选择 —", "Newest", "Best"]);
    expect(screen.getByRole("textbox", { name: "Excluded words" }).getAttribute("placeholder")).toBe("每行一个");
    await user.click(screen.getByRole("button", { name: "Check" }));
    expect(description(screen.getByRole("textbox", { name: "Query" }))).toBe("What to look for 必填");

    await user.click(screen.getByRole("checkbox", { name: "原始 JSON" }));
    const editor = screen.getByRole("textbox", { name: "JSON" });
    await user.clear(editor);
    await user.type(editor, "{{");
    expect(description(editor)).toMatch(/^不是有效的 JSON：/);
    expect(screen.getByText("修正 JSON 后才能回到表单。")).toBeTruthy();
  });

  it("says why it falls back to raw JSON, and lists errors by field, in the language chosen now", async () => {
    const user = userEvent.setup();
    const schema: Tool["inputSchema"] = {
      type: "object",
      properties: { rows: { type: "array", items: { type: "object", properties: { id: { type: "number" } } } } },
      required: ["rows"],
    };
    render(<Harness schema={schema} initial={{}} />);
    expect(screen.getByText("“rows” is a list of objects.")).toBeTruthy();
    act(() => applyLanguage("zh-CN"));
    expect(screen.getByText("此表单无法逐个字段显示，因此以 JSON 形式编辑：")).toBeTruthy();
    expect(screen.getByText("“rows”是对象的列表。")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Check" }));
    expect(screen.getByText("rows：必填")).toBeTruthy();
  });

  it("says when there is nothing to fill in", () => {
    act(() => applyLanguage("zh-CN"));
    render(<Harness schema={{ type: "object", properties: {} }} />);
    expect(screen.getByText("没有需要填写的字段。")).toBeTruthy();
  });
});

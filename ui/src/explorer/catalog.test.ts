import { describe, expect, it } from "vitest";
import { filterCatalog, type CatalogEntry } from "./catalog";

const entries: CatalogEntry[] = [
  { id: "p1", server: "demo", kind: "prompt", name: "greet", description: "Say hello" },
  { id: "t1", server: "demo", kind: "tool", name: "echo", title: "Echo", description: "Repeats the message" },
  { id: "t2", server: "files", kind: "tool", name: "read_file", description: "Reads a file from disk" },
  { id: "r1", server: "files", kind: "resource", name: "readme", title: "Project README" },
  { id: "x1", server: "files", kind: "template", name: "file", description: "Any file by path" },
];

const ids = (groups: ReturnType<typeof filterCatalog>) => groups.map((g) => [g.kind, g.entries.map((e) => e.id)]);

describe("filterCatalog", () => {
  it("groups everything by kind, tools first, leaving out empty kinds", () => {
    expect(ids(filterCatalog(entries, "", null, null))).toEqual([
      ["tool", ["t1", "t2"]],
      ["resource", ["r1"]],
      ["template", ["x1"]],
      ["prompt", ["p1"]],
    ]);
  });

  it("matches name, title, description and server, ignoring case", () => {
    expect(ids(filterCatalog(entries, "ECHO", null, null))).toEqual([["tool", ["t1"]]]);
    expect(ids(filterCatalog(entries, "project", null, null))).toEqual([["resource", ["r1"]]]);
    expect(ids(filterCatalog(entries, "hello", null, null))).toEqual([["prompt", ["p1"]]]);
    expect(ids(filterCatalog(entries, "Files", null, null))).toEqual([
      ["tool", ["t2"]],
      ["resource", ["r1"]],
      ["template", ["x1"]],
    ]);
  });

  it("needs every word of the query", () => {
    expect(ids(filterCatalog(entries, "  file   disk ", null, null))).toEqual([["tool", ["t2"]]]);
    expect(filterCatalog(entries, "file banana", null, null)).toEqual([]);
  });

  it("narrows to one server and one kind", () => {
    expect(ids(filterCatalog(entries, "", "files", null))).toEqual([
      ["tool", ["t2"]],
      ["resource", ["r1"]],
      ["template", ["x1"]],
    ]);
    expect(ids(filterCatalog(entries, "", "files", "tool"))).toEqual([["tool", ["t2"]]]);
    expect(ids(filterCatalog(entries, "", null, "prompt"))).toEqual([["prompt", ["p1"]]]);
  });
});

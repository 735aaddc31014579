import { describe, expect, it } from "vitest";
import { expandTemplate, templateFields, templateVariables } from "./uriTemplate";

// The example values of RFC 6570, section 1.2.
const values = {
  var: "value",
  hello: "Hello World!",
  path: "/foo/bar",
  x: "1024",
  y: "768",
};

describe("expandTemplate", () => {
  it.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["here?ref={+path}", "here?ref=/foo/bar"],
    ["map?{x,y}", "map?1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["X{.var}", "X.value"],
    ["X{.x,y}", "X.1024.768"],
    ["{/var}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y}", ";x=1024;y=768"],
    ["{?x,y}", "?x=1024&y=768"],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{var:3}", "val"],
    ["{/var*}", "/value"],
    ["{+path:6}/here", "/foo/b/here"],
  ])("%s -> %s", (template, expected) => {
    expect(expandTemplate(template, values)).toBe(expected);
  });

  it("leaves out what is not given, so optional query parts drop away", () => {
    expect(expandTemplate("demo://search{?q,page}", { q: "cats" })).toBe("demo://search?q=cats");
    expect(expandTemplate("demo://search{?q,page}", { q: "", page: "" })).toBe("demo://search");
    expect(expandTemplate("file:///{+path}", {})).toBe("file:///");
  });

  it("encodes UTF-8 and keeps escapes only where reserved characters pass", () => {
    expect(expandTemplate("{city}", { city: "Zürich" })).toBe("Z%C3%BCrich");
    expect(expandTemplate("{a}|{+a}", { a: "100%25 sure" })).toBe("100%2525%20sure|100%25%20sure");
  });

  it("treats an unclosed brace as text", () => {
    expect(expandTemplate("demo://{var}/{oops", values)).toBe("demo://value/{oops");
  });
});

describe("templateVariables", () => {
  it("names each variable once, in order", () => {
    expect(templateVariables("demo://{owner}/{repo}/issues{?state,owner}{#frag}")).toEqual(["owner", "repo", "state", "frag"]);
    expect(templateVariables("{+path:10}{/list*}")).toEqual(["path", "list"]);
    expect(templateVariables("demo://static")).toEqual([]);
  });

  it("counts query variables as optional, unless they are also in the path", () => {
    expect(templateFields("demo://{id}{?verbose}")).toEqual([
      { name: "id", optional: false },
      { name: "verbose", optional: true },
    ]);
    expect(templateFields("{?id}/{id}")).toEqual([{ name: "id", optional: false }]);
  });
});

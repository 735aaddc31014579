import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { CatalogList, type CatalogEntry, type Kind } from "./CatalogList";

afterEach(cleanup);

const entries: CatalogEntry[] = [
  { id: "t1", server: "demo", kind: "tool", name: "echo", title: "Echo", description: "Repeats the message\nwith details" },
  { id: "t2", server: "files", kind: "tool", name: "read_file" },
  { id: "r1", server: "files", kind: "resource", name: "readme" },
  { id: "p1", server: "demo", kind: "prompt", name: "greet" },
];

/** The list with its filters held in state, as the explorer holds them. */
function Harness({ onSelect }: { onSelect(id: string): void }) {
  const [query, setQuery] = useState("");
  const [server, setServer] = useState<string | null>(null);
  const [kind, setKind] = useState<Kind | null>(null);
  return (
    <CatalogList
      entries={entries}
      query={query}
      onQuery={setQuery}
      servers={["demo", "files"]}
      serverFilter={server}
      onServerFilter={setServer}
      kindFilter={kind}
      onKindFilter={setKind}
      selected="t2"
      onSelect={onSelect}
    />
  );
}

const shownEntries = () => screen.queryAllByRole("button", { name: / on / }).map((b) => b.textContent);

describe("CatalogList", () => {
  it("lists entries under their kind with server and first line of description", () => {
    render(<Harness onSelect={() => {}} />);
    const tools = screen.getByRole("region", { name: "Tools 2" });
    const echo = within(tools).getByRole("button", { name: "Echo on demo" });
    // Named by what it shows, so that a voice user says what they see; described by the
    // first line of its description.
    expect(echo.textContent).toBe("Echo on demo");
    expect(document.getElementById(echo.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Repeats the message");
    expect(screen.getByRole("region", { name: "Resources 1" })).toBeTruthy();
    expect(screen.getByRole("region", { name: "Prompts 1" })).toBeTruthy();
    expect(screen.queryByRole("region", { name: /Resource templates/ })).toBeNull();
    expect(screen.getByRole("button", { name: "read_file on files" }).getAttribute("aria-current")).toBe("true");
    expect(echo.getAttribute("aria-current")).toBeNull();
  });

  it("filters as the person types, picks a server and a kind", async () => {
    render(<Harness onSelect={() => {}} />);
    await userEvent.type(screen.getByRole("searchbox", { name: "Search tools, resources and prompts" }), "rea");
    expect(shownEntries()).toEqual(["read_file on files", "readme on files"]);

    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Server" }), "demo");
    expect(screen.getByText("Nothing matches.")).toBeTruthy();

    await userEvent.clear(screen.getByRole("searchbox"));
    expect(shownEntries()).toEqual(["Echo on demo", "greet on demo"]);

    const kinds = screen.getByRole("group", { name: "Kind" });
    await userEvent.click(within(kinds).getByRole("button", { name: "Prompts" }));
    expect(within(kinds).getByRole("button", { name: "Prompts" }).getAttribute("aria-pressed")).toBe("true");
    expect(shownEntries()).toEqual(["greet on demo"]);

    await userEvent.click(within(kinds).getByRole("button", { name: "All" }));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Server" }), "All servers");
    expect(shownEntries()).toHaveLength(4);
  });

  it("tells which entry was picked", async () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    await userEvent.click(screen.getByRole("button", { name: "greet on demo" }));
    expect(onSelect).toHaveBeenCalledWith("p1");
  });
});

describe("CatalogList in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the entries, which keep their servers' names", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<Harness onSelect={() => {}} />);
    expect(screen.getByRole("region", { name: "清单" })).toBeTruthy();
    const search = screen.getByRole("searchbox", { name: "搜索工具、资源和提示词" });
    expect(search.getAttribute("placeholder")).toBe("搜索");
    const tools = screen.getByRole("region", { name: "工具 2" });
    // The server's words as it wrote them; only the "on" between them is the window's.
    const echo = within(tools).getByRole("button", { name: "Echo 来自 demo" });
    expect(echo.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(echo.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Repeats the message");
    expect(screen.getByRole("region", { name: "资源 1" })).toBeTruthy();
    expect(screen.getByRole("region", { name: "提示词 1" })).toBeTruthy();
    const kinds = screen.getByRole("group", { name: "类型" });
    expect(within(kinds).getAllByRole("button").map((b) => b.textContent)).toEqual(["全部", "工具", "资源", "资源模板", "提示词", "技能"]);
    const server = screen.getByRole("combobox", { name: "服务器" });
    expect(within(server).getByRole("option", { name: "所有服务器" })).toBeTruthy();

    await userEvent.type(search, "banana");
    expect(screen.getByText("没有匹配的内容。")).toBeTruthy();
  });

  it("says in Chinese when nothing is offered", () => {
    act(() => applyLanguage("zh-CN"));
    render(
      <CatalogList
        entries={[]}
        query=""
        onQuery={() => {}}
        servers={[]}
        serverFilter={null}
        onServerFilter={() => {}}
        kindFilter={null}
        onKindFilter={() => {}}
        onSelect={() => {}}
      />,
    );
    expect(screen.getByText("尚未提供任何内容。")).toBeTruthy();
  });
});

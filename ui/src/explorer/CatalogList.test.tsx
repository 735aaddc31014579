import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
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

const shownEntries = () => screen.queryAllByRole("button", { name: / on / }).map((b) => b.getAttribute("aria-label"));

describe("CatalogList", () => {
  it("lists entries under their kind with server and first line of description", () => {
    render(<Harness onSelect={() => {}} />);
    const tools = screen.getByRole("region", { name: "Tools 2" });
    const echo = within(tools).getByRole("button", { name: "Echo on demo" });
    expect(echo.textContent).toBe("EchodemoRepeats the message");
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

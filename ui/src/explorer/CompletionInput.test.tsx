import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { CompletionInput } from "./CompletionInput";

afterEach(cleanup);

const LANGUAGES = ["python", "perl", "php", "rust"];

/** Suggests the languages that start with what is typed. */
const byPrefix = (value: string) => Promise.resolve(LANGUAGES.filter((l) => l.startsWith(value)));

function Field({ complete, onValue }: { complete(value: string): Promise<string[]>; onValue?(v: string): void }) {
  const [value, setValue] = useState("");
  return (
    <CompletionInput
      id="language"
      label="Language"
      value={value}
      onChange={(v) => {
        setValue(v);
        onValue?.(v);
      }}
      complete={complete}
      required
    />
  );
}

const field = () => screen.getByRole("combobox", { name: "Language" });
const options = () => screen.getAllByRole("option").map((o) => o.textContent);

describe("CompletionInput", () => {
  it("offers the server's suggestions for what is typed", async () => {
    render(<Field complete={byPrefix} />);
    expect(field().getAttribute("aria-expanded")).toBe("false");
    await userEvent.type(field(), "p");
    const list = await screen.findByRole("listbox", { name: "Suggestions for Language" });
    expect(options()).toEqual(["python", "perl", "php"]);
    expect(field().getAttribute("aria-expanded")).toBe("true");
    expect(field().getAttribute("aria-controls")).toBe(list.id);

    await userEvent.type(field(), "h");
    await waitFor(() => expect(options()).toEqual(["php"]));
  });

  it("asks once the typing pauses, not for every key", async () => {
    const complete = vi.fn(byPrefix);
    render(<Field complete={complete} />);
    await userEvent.type(field(), "pyt");
    await screen.findByRole("listbox");
    expect(complete.mock.calls.map(([value]) => value)).toEqual(["pyt"]);
  });

  it("picks a suggestion with the arrow keys and Enter", async () => {
    const onValue = vi.fn();
    render(<Field complete={byPrefix} onValue={onValue} />);
    await userEvent.type(field(), "p");
    await screen.findByRole("listbox");

    await userEvent.keyboard("{ArrowDown}{ArrowDown}");
    const perl = screen.getByRole("option", { name: "perl" });
    expect(perl.getAttribute("aria-selected")).toBe("true");
    expect(field().getAttribute("aria-activedescendant")).toBe(perl.id);

    await userEvent.keyboard("{ArrowUp}{ArrowUp}");
    expect(screen.getByRole("option", { name: "php" }).getAttribute("aria-selected")).toBe("true");

    await userEvent.keyboard("{Enter}");
    expect((field() as HTMLInputElement).value).toBe("php");
    expect(onValue).toHaveBeenLastCalledWith("php");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(field().getAttribute("aria-expanded")).toBe("false");
  });

  it("picks a suggestion with a click, and closes on Escape", async () => {
    render(<Field complete={byPrefix} />);
    await userEvent.type(field(), "r");
    await userEvent.click(await screen.findByRole("option", { name: "rust" }));
    expect((field() as HTMLInputElement).value).toBe("rust");
    expect(screen.queryByRole("listbox")).toBeNull();

    await userEvent.clear(field());
    await screen.findByRole("listbox");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("shows the answer to the latest question only", async () => {
    const pending: Record<string, (values: string[]) => void> = {};
    const complete = (value: string) => new Promise<string[]>((resolve) => (pending[value] = resolve));
    render(<Field complete={complete} />);
    await userEvent.type(field(), "p");
    await waitFor(() => expect(pending.p).toBeDefined());
    await userEvent.type(field(), "e");
    await waitFor(() => expect(pending.pe).toBeDefined());

    await act(async () => pending.pe?.(["perl"]));
    await act(async () => pending.p?.(["python", "perl", "php"]));
    expect(options()).toEqual(["perl"]);
  });

  it("stays quiet when the server cannot complete", async () => {
    const complete = vi.fn(() => Promise.reject(new Error("no completions capability")));
    render(<Field complete={complete} />);
    await userEvent.type(field(), "p");
    await waitFor(() => expect(complete).toHaveBeenCalled());
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect((field() as HTMLInputElement).value).toBe("p");
  });

  it("marks a required field", () => {
    render(<Field complete={byPrefix} />);
    expect(field().getAttribute("aria-required")).toBe("true");
    expect(screen.getByText("*")).toBeTruthy();
  });
});

describe("CompletionInput in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names the list of suggestions in Chinese, around the field's own label", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<Field complete={byPrefix} />);
    await userEvent.type(field(), "p");
    expect(await screen.findByRole("listbox", { name: "Language 的建议值" })).toBeTruthy();
    expect(options()).toEqual(["python", "perl", "php"]);
  });
});

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProviderList, type ProviderListProps } from "./ProviderList";

afterEach(cleanup);

function setup(overrides: Partial<ProviderListProps> = {}) {
  const props: ProviderListProps = {
    providers: [
      { name: "openai", protocol: "openai", baseUrl: "https://api.openai.com/v1", models: [], defaultModel: "gpt-test", key: "stored", prices: { "gpt-test": { input: 2.5, output: 10 } }, profiles: {}, known: {} },
      { name: "ollama", protocol: "openai", baseUrl: "http://localhost:11434/v1", models: ["llama3.2"], defaultModel: null, key: "none", prices: {}, profiles: {}, known: { "llama3.2": { vision: false } } },
      { name: "lost", protocol: "anthropic", baseUrl: "https://api.anthropic.com", models: [], defaultModel: null, key: "missing", prices: {}, profiles: {}, known: {} },
    ],
    defaultProvider: "openai",
    onAdd: vi.fn(),
    onEdit: vi.fn(),
    onRemove: vi.fn(),
    onMakeDefault: vi.fn(),
    onPrice: vi.fn(),
    onProfile: vi.fn(),
    ...overrides,
  };
  render(<ProviderList {...props} />);
  return { props, user: userEvent.setup() };
}

describe("ProviderList", () => {
  it("shows each provider with whether its key is stored, and the default", () => {
    setup();
    const openai = within(screen.getByRole("listitem", { name: "openai" }));
    expect(openai.getByText("Default")).toBeTruthy();
    expect(openai.getByText("Stored in keyring")).toBeTruthy();
    expect(openai.getByText(/Default model:/).textContent).toBe("Default model: gpt-test");
    expect(within(screen.getByRole("listitem", { name: "ollama" })).getByText("No key")).toBeTruthy();
    expect(within(screen.getByRole("listitem", { name: "lost" })).getByText("Key missing from the keyring")).toBeTruthy();
  });

  it("edits, removes and makes a provider the default", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Edit ollama" }));
    expect(props.onEdit).toHaveBeenCalledWith("ollama");
    await user.click(within(screen.getByRole("listitem", { name: "ollama" })).getByRole("button", { name: "Make default" }));
    expect(props.onMakeDefault).toHaveBeenCalledWith("ollama");
    await user.click(within(screen.getByRole("listitem", { name: "openai" })).getByRole("button", { name: "No default" }));
    expect(props.onMakeDefault).toHaveBeenCalledWith(null);
    await user.click(screen.getByRole("button", { name: "Remove lost" }));
    expect(props.onRemove).toHaveBeenCalledWith("lost");
  });

  it("says that no provider is needed", async () => {
    const { props, user } = setup({ providers: [], defaultProvider: null });
    expect(screen.getByText(/No model provider yet/).textContent).toContain("sampling requests are answered by you");
    await user.click(screen.getByRole("button", { name: "Add a provider" }));
    expect(props.onAdd).toHaveBeenCalled();
  });

  it("keeps the prices of a provider's models, both or neither", async () => {
    const user = userEvent.setup();
    const { props } = setup();
    const openai = within(screen.getByRole("listitem", { name: "openai" }));
    await user.click(openai.getByText("Prices of openai's models"));
    expect(openai.getByRole("spinbutton", { name: "Input price of gpt-test" })).toHaveProperty("value", "2.5");
    const output = openai.getByRole("spinbutton", { name: "Output price of gpt-test" });
    await user.clear(output);
    expect(openai.getByText(/both prices, each 0 or more/)).toBeTruthy();
    await user.type(output, "12");
    await user.click(openai.getByRole("button", { name: "Save" }));
    expect(props.onPrice).toHaveBeenCalledWith("openai", "gpt-test", { input: 2.5, output: 12 });

    const ollama = within(screen.getByRole("listitem", { name: "ollama" }));
    await user.click(ollama.getByText("Prices of ollama's models"));
    await user.type(ollama.getByRole("spinbutton", { name: "Input price of llama3.2" }), "0");
    await user.type(ollama.getByRole("spinbutton", { name: "Output price of llama3.2" }), "0");
    await user.click(ollama.getByRole("button", { name: "Save" }));
    expect(props.onPrice).toHaveBeenLastCalledWith("ollama", "llama3.2", { input: 0, output: 0 });
  });

  it("says what each model takes by its name, and keeps what the person says over it", async () => {
    const user = userEvent.setup();
    const { props } = setup();
    const ollama = within(screen.getByRole("listitem", { name: "ollama" }));
    await user.click(ollama.getByText("What ollama's models take"));
    const images = ollama.getByRole("combobox", { name: "Reads images: llama3.2" });
    expect(within(images).getAllByRole("option")[0]?.textContent).toBe("No (by its name)");
    const save = ollama.getByRole("button", { name: "Save what llama3.2 takes" });
    expect(save).toHaveProperty("disabled", true);
    const context = ollama.getByRole("spinbutton", { name: "Context of llama3.2, tokens" });
    await user.type(context, "0");
    expect(ollama.getByText(/a whole number of tokens, 1 or more/)).toBeTruthy();
    expect(save).toHaveProperty("disabled", true);
    await user.clear(context);
    await user.type(context, "8192");
    await user.selectOptions(images, "yes");
    await user.click(save);
    expect(props.onProfile).toHaveBeenCalledWith("ollama", "llama3.2", { contextTokens: 8192, vision: true });
  });
});

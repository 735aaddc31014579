import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProviderList, type ProviderListProps } from "./ProviderList";

afterEach(cleanup);

function setup(overrides: Partial<ProviderListProps> = {}) {
  const props: ProviderListProps = {
    providers: [
      { name: "openai", protocol: "openai", baseUrl: "https://api.openai.com/v1", models: [], defaultModel: "gpt-test", key: "stored" },
      { name: "ollama", protocol: "openai", baseUrl: "http://localhost:11434/v1", models: ["llama3.2"], defaultModel: null, key: "none" },
      { name: "lost", protocol: "anthropic", baseUrl: "https://api.anthropic.com", models: [], defaultModel: null, key: "missing" },
    ],
    defaultProvider: "openai",
    onAdd: vi.fn(),
    onEdit: vi.fn(),
    onRemove: vi.fn(),
    onMakeDefault: vi.fn(),
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
    expect(openai.getByText("gpt-test")).toBeTruthy();
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
});

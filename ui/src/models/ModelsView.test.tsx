import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { ModelsView } from "./ModelsView";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({
    providers: vi.fn(),
    saveProvider: vi.fn(() => Promise.resolve(null)),
    removeProvider: vi.fn(() => Promise.resolve(null)),
    fetchModels: vi.fn(() => Promise.resolve([{ id: "gpt-test", displayName: null }])),
    setDefaultProvider: vi.fn(() => Promise.resolve(null)),
  }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const saved = {
  providers: [{ name: "openai", protocol: "openai" as const, baseUrl: "https://api.openai.com/v1", models: [], defaultModel: null, key: "stored" as const, prices: {}, profiles: {}, known: {} }],
  defaultProvider: null,
};

describe("ModelsView", () => {
  it("edits a saved provider: the models are fetched with its stored key, and the change saved under its name", async () => {
    vi.mocked(commands.providers).mockResolvedValue(saved);
    const user = userEvent.setup();
    render(<ModelsView />);
    await user.click(await screen.findByRole("button", { name: "Edit openai" }));
    await user.click(screen.getByRole("button", { name: "Fetch models" }));
    expect(commands.fetchModels).toHaveBeenCalledWith("openai", expect.objectContaining({ apiKey: { kind: "keep" } }));
    await user.selectOptions(await screen.findByRole("combobox", { name: "Fetched models" }), "gpt-test");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(commands.saveProvider).toHaveBeenCalledWith("openai", expect.objectContaining({ name: "openai", defaultModel: "gpt-test" }));
    // Back to the list, fetched again.
    expect(await screen.findByRole("button", { name: "Add a provider" })).toBeTruthy();
    expect(vi.mocked(commands.providers).mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it("keeps the form open and says why when saving fails", async () => {
    vi.mocked(commands.providers).mockResolvedValue(saved);
    vi.mocked(commands.saveProvider).mockRejectedValueOnce({ code: "system", message: "the keyring is not available: no D-Bus" });
    const user = userEvent.setup();
    render(<ModelsView />);
    await user.click(await screen.findByRole("button", { name: "Add a provider" }));
    await user.click(screen.getByRole("button", { name: "OpenAI" }));
    await user.clear(screen.getByRole("textbox", { name: "Provider name" }));
    await user.type(screen.getByRole("textbox", { name: "Provider name" }), "work");
    await user.type(screen.getByLabelText("API key"), "sk-x");
    await user.click(screen.getByRole("button", { name: "Add provider" }));
    expect(commands.saveProvider).toHaveBeenCalledWith(null, expect.objectContaining({ name: "work", apiKey: { kind: "set", value: "sk-x" } }));
    expect((await screen.findByRole("alert")).textContent).toBe("the keyring is not available: no D-Bus");
    expect(screen.getByRole("form")).toBeTruthy();
  });

  it("removes a provider and makes one the default", async () => {
    vi.mocked(commands.providers).mockResolvedValue(saved);
    const user = userEvent.setup();
    render(<ModelsView />);
    const item = within(await screen.findByRole("listitem", { name: "openai" }));
    await user.click(item.getByRole("button", { name: "Make default" }));
    expect(commands.setDefaultProvider).toHaveBeenCalledWith("openai");
    await user.click(item.getByRole("button", { name: "Remove openai" }));
    expect(commands.removeProvider).toHaveBeenCalledWith("openai");
  });
});

import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { ProviderFormView, type ProviderFormViewProps } from "./ProviderFormView";
import { draftOf, emptyDraft } from "./providerFormModel";

afterEach(() => {
  cleanup();
  // The tests after each start in English.
  act(() => applyLanguage("en"));
});

function setup(overrides: Partial<ProviderFormViewProps> = {}) {
  const props: ProviderFormViewProps = {
    initial: emptyDraft(),
    original: null,
    existingNames: ["openai"],
    onSave: vi.fn(),
    onCancel: vi.fn(),
    onFetchModels: vi.fn(() => Promise.resolve([])),
    ...overrides,
  };
  render(<ProviderFormView {...props} />);
  return { props, user: userEvent.setup() };
}

const field = (name: string) => screen.getByRole("textbox", { name });

const stored = draftOf({
  name: "claude",
  protocol: "anthropic",
  baseUrl: "https://api.anthropic.com",
  models: [],
  defaultModel: "claude-test",
  key: "stored", prices: {}, profiles: {}, known: {},
});

describe("ProviderFormView", () => {
  it("fills protocol, URL and name from a preset and saves a typed key for the keyring", async () => {
    const { props, user } = setup({ existingNames: [] });
    await user.click(screen.getByRole("button", { name: "Ollama" }));
    expect(field("Provider name")).toHaveProperty("value", "ollama");
    expect(field("Base URL")).toHaveProperty("value", "http://localhost:11434/v1");
    expect(screen.getByRole("radio", { name: "OpenAI-compatible Chat Completions" })).toHaveProperty("checked", true);
    await user.click(screen.getByRole("button", { name: "OpenAI" }));
    expect(screen.getByRole("radio", { name: "OpenAI Responses API" })).toHaveProperty("checked", true);
    await user.click(screen.getByRole("button", { name: "Anthropic" }));
    expect(field("Provider name")).toHaveProperty("value", "ollama"); // a name given is kept
    expect(screen.getByRole("radio", { name: "Anthropic Messages" })).toHaveProperty("checked", true);
    expect(field("Base URL")).toHaveProperty("value", "https://api.anthropic.com");
    await user.clear(field("Provider name"));
    await user.type(field("Provider name"), "claude");
    const key = screen.getByLabelText("API key");
    expect(key.getAttribute("type")).toBe("password");
    await user.type(key, " sk-ant-secret ");
    await user.type(field("Models"), "claude-a{Enter}{Enter}claude-b");
    await user.type(field("Default model"), "claude-b");
    await user.click(screen.getByRole("button", { name: "Add provider" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      name: "claude",
      protocol: "anthropic",
      baseUrl: "https://api.anthropic.com",
      models: ["claude-a", "claude-b"],
      defaultModel: "claude-b",
      apiKey: { kind: "set", value: "sk-ant-secret" },
    });
  });

  it("names what is wrong beside each field and saves nothing", async () => {
    const { props, user } = setup();
    await user.type(field("Provider name"), "openai");
    await user.type(field("Base URL"), "localhost:11434");
    await user.click(screen.getByRole("button", { name: "Add provider" }));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("2 things to fix before saving.");
    expect(screen.getByText("A provider named openai already exists.")).toBeTruthy();
    expect(screen.getByText("Enter an http:// or https:// URL.")).toBeTruthy();
    expect(document.activeElement).toBe(field("Provider name"));
  });

  it("shows a stored key as stored, keeps it by default, and can remove it", async () => {
    const { props, user } = setup({ initial: stored, original: "claude", existingNames: ["claude"] });
    expect(screen.getByTestId("key-state").textContent).toBe("Stored in keyring");
    expect(screen.getByLabelText("API key")).toHaveProperty("value", "");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(props.onSave).toHaveBeenLastCalledWith(expect.objectContaining({ name: "claude", apiKey: { kind: "keep" } }));
    await user.click(screen.getByRole("button", { name: "Remove key" }));
    expect(screen.getByTestId("key-state").textContent).toBe("Key to be removed");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(props.onSave).toHaveBeenLastCalledWith(expect.objectContaining({ apiKey: { kind: "remove" } }));
  });

  it("picks the default model from the list the provider gives", async () => {
    const onFetchModels = vi.fn(() =>
      Promise.resolve([
        { id: "claude-test", displayName: "Claude Test" },
        { id: "claude-mini", displayName: null },
      ]),
    );
    const { props, user } = setup({ initial: stored, original: "claude", existingNames: ["claude"], onFetchModels });
    await user.click(screen.getByRole("button", { name: "Fetch models" }));
    expect(onFetchModels).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ name: "claude", apiKey: { kind: "keep" } }));
    const list = await screen.findByRole("combobox", { name: "Fetched models" });
    expect([...list.querySelectorAll("option")].map((o) => o.textContent)).toEqual([
      "Pick one of 2 models",
      "Claude Test (claude-test)",
      "claude-mini",
    ]);
    await user.selectOptions(list, "claude-mini");
    expect(field("Default model")).toHaveProperty("value", "claude-mini");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(props.onSave).toHaveBeenCalledWith(expect.objectContaining({ defaultModel: "claude-mini" }));
  });

  it("says in the provider's words why the models could not be fetched", async () => {
    const onFetchModels = vi.fn(() =>
      Promise.reject({
        code: "provider",
        message: "the provider limits the rate of requests (retry after 7 s): Rate limit reached",
      }),
    );
    const { user } = setup({ initial: stored, original: "claude", existingNames: ["claude"], onFetchModels });
    await user.click(screen.getByRole("button", { name: "Fetch models" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Could not fetch the models: the provider limits the rate of requests (retry after 7 s): Rate limit reached",
    );
    expect(screen.queryByRole("combobox", { name: "Fetched models" })).toBeNull();
  });

  it("does not ask a provider whose URL is not one", async () => {
    const { props, user } = setup();
    await user.type(field("Base URL"), "ftp://example.com");
    await user.click(screen.getByRole("button", { name: "Fetch models" }));
    expect(props.onFetchModels).not.toHaveBeenCalled();
    expect(screen.getByText("Enter an http:// or https:// URL.")).toBeTruthy();
  });

  it("says what is wrong in Chinese, counted, and names the fields and the fetched models", async () => {
    act(() => applyLanguage("zh-CN"));
    const { props, user } = setup();
    expect(screen.getByRole("heading", { name: "添加提供方" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "兼容 OpenAI 的 Chat Completions" })).toBeTruthy();
    await user.type(field("提供方名称"), "openai");
    await user.type(field("基础 URL"), "localhost:11434");
    await user.click(screen.getByRole("button", { name: "添加提供方" }));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("保存前有 2 处需要修改。");
    expect(screen.getByText("已有名为 openai 的提供方。")).toBeTruthy();
    expect(screen.getByText("请输入以 http:// 或 https:// 开头的 URL。")).toBeTruthy();
    await user.clear(field("提供方名称"));
    await user.type(field("提供方名称"), "work");
    expect(screen.getByRole("alert").textContent).toBe("保存前有 1 处需要修改。");
  });

  it("names a stored key and the fetched models in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    const onFetchModels = vi.fn(() => Promise.resolve([{ id: "claude-test", displayName: "Claude Test" }]));
    const { user } = setup({ initial: stored, original: "claude", existingNames: ["claude"], onFetchModels });
    expect(screen.getByRole("heading", { name: "编辑 claude" })).toBeTruthy();
    expect(screen.getByTestId("key-state").textContent).toBe("已保存在密钥环中");
    expect(screen.getByLabelText("API 密钥").getAttribute("placeholder")).toBe("••••••（已保存）");
    await user.click(screen.getByRole("button", { name: "获取模型" }));
    const list = await screen.findByRole("combobox", { name: "获取到的模型" });
    expect([...list.querySelectorAll("option")].map((o) => o.textContent)).toEqual([
      "从 1 个模型中选择一个",
      "Claude Test（claude-test）",
    ]);
    expect(screen.getByRole("button", { name: "保存更改" })).toBeTruthy();
  });
});

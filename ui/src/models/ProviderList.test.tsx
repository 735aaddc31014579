import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { ProviderList, type ProviderListProps } from "./ProviderList";

afterEach(() => {
  cleanup();
  // The tests after each start in English.
  act(() => applyLanguage("en"));
});

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

  it("speaks Chinese: each provider, its key, its default model, its prices and what its models take", async () => {
    act(() => applyLanguage("zh-CN"));
    const user = userEvent.setup();
    setup();
    expect(screen.getByRole("heading", { name: "提供方" })).toBeTruthy();
    const openai = within(screen.getByRole("listitem", { name: "openai" }));
    expect(openai.getByText("默认")).toBeTruthy();
    expect(openai.getByText("已保存在密钥环中")).toBeTruthy();
    expect(openai.getByText("兼容 OpenAI")).toBeTruthy();
    expect(openai.getByText(/默认模型：/).textContent).toBe("默认模型：gpt-test");
    expect(openai.getByRole("button", { name: "编辑 openai" })).toBeTruthy();
    expect(openai.getByRole("button", { name: "取消默认" })).toBeTruthy();
    expect(within(screen.getByRole("listitem", { name: "lost" })).getByText("密钥环中缺少密钥")).toBeTruthy();
    await user.click(openai.getByText("openai 的模型价格"));
    expect(openai.getByRole("columnheader", { name: "输入，每百万词元美元价格" })).toBeTruthy();
    const output = openai.getByRole("spinbutton", { name: "gpt-test 的输出价格" });
    await user.clear(output);
    expect(openai.getByText(/两个价格都要填写/)).toBeTruthy();
    const ollama = within(screen.getByRole("listitem", { name: "ollama" }));
    await user.click(ollama.getByText("ollama 的模型能力"));
    const images = ollama.getByRole("combobox", { name: "读取图像：llama3.2" });
    expect(within(images).getAllByRole("option").map((o) => o.textContent)).toEqual(["否（按名称推断）", "是", "否"]);
    expect(ollama.getByRole("spinbutton", { name: "llama3.2 的上下文，词元" }).getAttribute("placeholder")).toBe("未知");
    expect(ollama.getByRole("button", { name: "保存 llama3.2 的能力" })).toBeTruthy();
  });

  it("says in Chinese that no provider is needed", () => {
    act(() => applyLanguage("zh-CN"));
    setup({ providers: [], defaultProvider: null });
    expect(screen.getByText(/还没有模型提供方/).textContent).toContain("采样请求由你来回答");
    expect(screen.getByRole("button", { name: "添加提供方" })).toBeTruthy();
  });
});

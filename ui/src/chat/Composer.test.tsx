import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { applyLanguage } from "../i18n";
import { Composer } from "./Composer";
import { composed, emptyDraft, sendable, slashQuery, type Draft, type PromptChoice, type ResourceChoice } from "./context";

vi.mock("../bindings", () => ({
  commands: { complete: vi.fn(() => Promise.resolve(["Ada", "Alan"])) },
}));

afterEach(cleanup);

const resources: ResourceChoice[] = [
  { server: "demo", uri: "demo://readme", name: "readme", title: "About the demo" },
  { server: "demo", uri: "demo://notes", name: "notes" },
  { server: "files", uri: "file:///tmp/a.txt", name: "a.txt" },
];
const prompts: PromptChoice[] = [
  { server: "demo", name: "greet", title: "Greet someone", description: "Asks the model to greet someone", arguments: [{ name: "name", description: "Who to greet", required: true }] },
  { server: "demo", name: "summarize", title: "Summarize a text", arguments: [{ name: "text", required: true }, { name: "style" }] },
];

function Harness({ onSubmit, seen }: { onSubmit: () => void; seen: (d: Draft) => void }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  return (
    <Composer
      draft={draft}
      onDraft={(d) => {
        seen(d);
        setDraft(d);
      }}
      resources={resources}
      prompts={prompts}
      onSubmit={onSubmit}
    />
  );
}

function setup() {
  const onSubmit = vi.fn();
  let last: Draft = emptyDraft();
  render(<Harness onSubmit={onSubmit} seen={(d) => (last = d)} />);
  return { onSubmit, draft: () => last };
}

describe("the composer", () => {
  it("lists the prompts on / with their title, description and server, narrowed by typing", async () => {
    setup();
    const message = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(message, "/");
    const menu = screen.getByRole("listbox", { name: "Prompts" });
    const options = within(menu).getAllByRole("option");
    expect(options).toHaveLength(2);
    expect(options[0]?.textContent).toContain("/greet");
    expect(options[0]?.textContent).toContain("Greet someone");
    expect(options[0]?.textContent).toContain("Asks the model to greet someone");
    expect(options[0]?.textContent).toContain("demo");
    await userEvent.type(message, "summ");
    expect(within(screen.getByRole("listbox", { name: "Prompts" })).getAllByRole("option")).toHaveLength(1);
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("listbox", { name: "Prompts" })).toBeNull();
  });

  it("shows a chosen prompt's arguments as fields completed by the server, and sends them", async () => {
    const { onSubmit, draft } = setup();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "/gr{Enter}");
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole("group", { name: "Prompt /greet" })).toBeTruthy();
    expect(sendable(draft())).toBe(false);
    const field = screen.getByRole("combobox", { name: /name/ });
    await userEvent.type(field, "A");
    const suggestions = await screen.findByRole("listbox", { name: /Suggestions/ });
    expect(commands.complete).toHaveBeenCalledWith("demo", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "A" },
      context: { arguments: { name: "A" } },
    });
    await userEvent.click(within(suggestions).getByRole("option", { name: "Ada" }));
    expect(sendable(draft())).toBe(true);
    expect(composed(draft())).toEqual({ text: "", attachments: [], prompt: { server: "demo", name: "greet", arguments: { name: "Ada" } } });
    await userEvent.click(screen.getByRole("button", { name: "Remove prompt" }));
    expect(draft().prompt).toBeNull();
  });

  it("attaches resources found by name or URI as chips that can be removed", async () => {
    const { draft } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Attach resource" }));
    await userEvent.type(screen.getByRole("searchbox", { name: "Search resources" }), "readme");
    const found = within(screen.getByRole("list", { name: "Resources" })).getAllByRole("button");
    expect(found).toHaveLength(1);
    await userEvent.click(found[0] as HTMLElement);
    await userEvent.click(screen.getByRole("button", { name: "Attach resource" }));
    await userEvent.type(screen.getByRole("searchbox", { name: "Search resources" }), "files{Enter}");
    const chips = screen.getByRole("list", { name: "Attached resources" });
    expect(within(chips).getAllByRole("listitem")).toHaveLength(2);
    expect(chips.textContent).toContain("About the demo");
    expect(sendable(draft())).toBe(true);
    expect(composed(draft()).attachments).toEqual([
      { server: "demo", uri: "demo://readme" },
      { server: "files", uri: "file:///tmp/a.txt" },
    ]);
    await userEvent.click(screen.getByRole("button", { name: "Remove demo://readme" }));
    expect(composed(draft()).attachments).toEqual([{ server: "files", uri: "file:///tmp/a.txt" }]);
  });

  it("sends on Enter when no menu is open", async () => {
    const { onSubmit } = setup();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Hello{Enter}");
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("does not send on the Enter that ends an input method's composition", () => {
    const { onSubmit } = setup();
    const message = screen.getByRole("textbox", { name: "Message" });
    fireEvent.keyDown(message, { key: "Enter", isComposing: true });
    fireEvent.keyDown(message, { key: "Enter", keyCode: 229 });
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.keyDown(message, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("reads a slash command only at the start of a message, before a space", () => {
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/gre")).toBe("gre");
    expect(slashQuery("/greet now")).toBeNull();
    expect(slashQuery("see /greet")).toBeNull();
  });
});

describe("the composer in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names its parts in Chinese, and keeps the servers' prompt and resource names as they are", async () => {
    act(() => applyLanguage("zh-CN"));
    setup();
    const message = screen.getByRole("textbox", { name: "消息" }) as HTMLTextAreaElement;
    expect(message.placeholder).toBe("给模型写点什么…（输入 / 使用提示词）");
    await userEvent.type(message, "/nothing");
    expect(within(screen.getByRole("listbox", { name: "提示词" })).getByText("没有匹配的提示词。")).toBeTruthy();
    await userEvent.clear(message);
    await userEvent.type(message, "/gr{Enter}");
    expect(screen.getByRole("group", { name: "提示词 /greet" }).textContent).toContain("Greet someone");
    expect((screen.getByRole("textbox", { name: "消息" }) as HTMLTextAreaElement).placeholder).toBe("补充到提示词（可选）…");
    expect(screen.getByRole("button", { name: "移除提示词" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "附加资源" }));
    const search = screen.getByRole("searchbox", { name: "搜索资源" }) as HTMLInputElement;
    expect(search.placeholder).toBe("资源名称或 URI…");
    await userEvent.type(search, "nowhere");
    expect(within(screen.getByRole("list", { name: "资源" })).getByText("没有匹配的资源。")).toBeTruthy();
    await userEvent.clear(search);
    await userEvent.type(search, "readme{Enter}");
    expect(within(screen.getByRole("list", { name: "已附加的资源" })).getByRole("button", { name: "移除 demo://readme" })).toBeTruthy();
  });

  it("says in Chinese when no running server offers a prompt or a resource", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<Composer draft={{ text: "/", attachments: [], prompt: null }} onDraft={() => {}} resources={[]} prompts={[]} onSubmit={() => {}} />);
    expect(screen.getByText("没有运行中的服务器提供提示词。")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "附加资源" }));
    expect(screen.getByText("没有运行中的服务器提供资源。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "关闭" })).toBeTruthy();
  });
});

import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ShownMessage } from "../bindings";
import { applyLanguage } from "../i18n";
import { idle } from "./live";
import { Messages } from "./Messages";

afterEach(() => {
  cleanup();
  act(() => applyLanguage("en"));
});

describe("the messages", () => {
  it("show a resource attached to the person's message, with what the model was given of it", () => {
    render(
      <Messages
        messages={[
          {
            role: "user",
            turn: true, spent: null,
            parts: [
              { kind: "resource", server: "demo", uri: "demo://readme", mimeType: "text/markdown", text: "# Demo" },
              { kind: "text", text: "What is this?" },
            ],
          },
        ]}
        live={idle()}
        onStop={() => {}}
      />,
    );
    const you = screen.getByRole("listitem", { name: "You" });
    // In a log: a screen reader says each message as it comes.
    expect(within(screen.getByRole("log")).getByRole("list", { name: "Messages" })).toBeTruthy();
    expect(you.querySelector("summary")?.textContent).toContain("demo://readme");
    expect(you.querySelector("summary")?.textContent).toContain("demo");
    expect(you.querySelector("pre")?.textContent).toBe("# Demo");
    expect(you.textContent).toContain("What is this?");
  });

  it("show a kept call that was never made as not run, with what the model was told, and a tool's error as failed", () => {
    const call = (id: string) => ({ kind: "tool_call" as const, callId: id, name: "demo__echo", server: "demo", tool: "echo", arguments: {} });
    const told = "This tool call was not made: the user denied it. Do not try it again unless the user asks.";
    const content = (text: string) => ({ content: [{ type: "text", text }], isError: true });
    render(
      <Messages
        messages={[
          { role: "assistant", turn: false, spent: null, parts: [call("c1"), call("c2")] },
          {
            role: "user",
            turn: false, spent: null,
            parts: [
              { kind: "tool_result", callId: "c1", result: content(told), isError: true, notMade: told },
              { kind: "tool_result", callId: "c2", result: content("disk full"), isError: true, notMade: null },
            ],
          },
        ]}
        live={idle()}
        onStop={() => {}}
      />,
    );
    const [denied, failed] = screen.getAllByRole("region");
    expect(denied?.querySelector("[role=status]")?.textContent).toBe("Not run");
    expect(denied?.textContent).toContain("the user denied it");
    expect(failed?.querySelector("[role=status]")?.textContent).toBe("Failed");
    expect(failed?.textContent).toContain("disk full");
  });

  it("copy a message's text to the clipboard", async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue();
    render(
      <Messages
        messages={[{ role: "assistant", turn: false, spent: null, parts: [{ kind: "text", text: "First." }, { kind: "text", text: "Second." }] }]}
        live={idle()}
        onStop={() => {}}
      />,
    );
    await user.click(screen.getByRole("button", { name: "Copy this message" }));
    expect(writeText).toHaveBeenCalledExactlyOnceWith("First.\n\nSecond.");
    expect(screen.getByRole("button", { name: "Copy this message" }).textContent).toBe("Copied");
  });

  it("show what the host told the model beside its calls' results as a note, not as the person's, in the window's language", () => {
    const messages: ShownMessage[] = [
      {
        role: "assistant",
        turn: false,
        spent: null,
        parts: [{ kind: "tool_call", callId: "c1", name: "demo__add", server: "demo", tool: "add", arguments: { a: 2 } }],
      },
      {
        role: "user",
        turn: false,
        spent: null,
        parts: [
          { kind: "tool_result", callId: "c1", result: { content: [] }, isError: false, notMade: null },
          { kind: "edited", callId: "c1", arguments: { a: 20 } },
        ],
      },
    ];
    render(<Messages messages={messages} live={idle()} onStop={() => {}} />);
    expect(screen.queryByRole("listitem", { name: "You" })).toBeNull();
    expect(screen.getByRole("listitem", { name: "Note" }).textContent).toBe(
      'You changed the arguments of add before it ran; the model was told it ran with: {"a":20}',
    );
    cleanup();
    act(() => applyLanguage("zh-CN"));
    render(<Messages messages={messages} live={idle()} onStop={() => {}} />);
    expect(screen.getByRole("listitem", { name: "附注" }).textContent).toBe('你在 add 运行前修改了它的参数；模型已得知它以如下参数运行：{"a":20}');
  });

  it("show a summary of the earlier turns as the model's, folded, never as a turn of the person's", async () => {
    const user = userEvent.setup();
    const messages: ShownMessage[] = [
      { role: "user", turn: false, spent: null, parts: [{ kind: "summary", text: "Rain in **Lisbon**: 4 mm." }] },
      { role: "user", turn: true, spent: null, parts: [{ kind: "text", text: "And tomorrow?" }] },
    ];
    render(<Messages messages={messages} live={idle()} onStop={() => {}} turns={{ onEdit: () => {}, onRemove: () => {} }} />);
    const summary = screen.getByRole("listitem", { name: "Summary" });
    expect(within(summary).queryByRole("button", { name: "Edit" })).toBeNull();
    await user.click(within(summary).getByText("What came before, summarised by the model to fit its context"));
    expect(within(summary).getByText("Lisbon").tagName).toBe("STRONG");
    expect(screen.getAllByRole("listitem", { name: "You" })).toHaveLength(1);
  });

  it("fold the model's reasoning above its answer, open while it is still thinking", () => {
    const { rerender } = render(
      <Messages
        messages={[
          {
            role: "assistant",
            turn: false, spent: null,
            parts: [
              { kind: "reasoning", text: "The person wants rain figures.", redacted: false },
              { kind: "reasoning", text: "", redacted: true },
              { kind: "text", text: "Some rain." },
            ],
          },
        ]}
        live={{ ...idle(true), thinking: "Now the wind." }}
        onStop={() => {}}
      />,
    );
    const [kept, hidden, thinking] = [...document.querySelectorAll("details.chat-reasoning")] as HTMLDetailsElement[];
    expect(kept?.open).toBe(false);
    expect(kept?.querySelector("summary")?.textContent).toBe("Reasoning");
    expect(kept?.textContent).toContain("The person wants rain figures.");
    expect(hidden?.textContent).toContain("The provider keeps this reasoning hidden.");
    expect(thinking?.open).toBe(true);
    expect(thinking?.querySelector("summary")?.textContent).toBe("Thinking…");
    rerender(<Messages messages={[]} live={{ ...idle(true), thinking: "Now the wind.", streaming: "Windy." }} onStop={() => {}} />);
    const folded = document.querySelector("details.chat-reasoning") as HTMLDetailsElement;
    expect(folded.open, "folded once the answer begins").toBe(false);
  });

  it("say what each answer took, and what it cost when its model has a price", () => {
    const spent = (cost: number | null) => ({ model: "model-a", inputTokens: 1000, outputTokens: 200, cost });
    render(
      <Messages
        messages={[
          { role: "assistant", turn: false, spent: spent(0.006), parts: [{ kind: "text", text: "Priced." }] },
          { role: "assistant", turn: false, spent: spent(null), parts: [{ kind: "text", text: "Not priced." }] },
        ]}
        live={idle()}
        onStop={() => {}}
      />,
    );
    const said = [...document.querySelectorAll(".chat-spent")].map((p) => p.textContent);
    expect(said).toEqual(["1,000 tokens read, 200 written by model-a · $0.0060", "1,000 tokens read, 200 written by model-a"]);
  });
});

describe("the messages in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("name who said what in Chinese, and leave what the model and the apps wrote as they wrote it", async () => {
    act(() => applyLanguage("zh-CN"));
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new Error("no clipboard"));
    render(
      <Messages
        messages={[
          {
            role: "user",
            turn: true,
            spent: null,
            parts: [
              { kind: "resource", server: "demo", uri: "demo://readme", mimeType: "text/markdown", text: "# Demo" },
              { kind: "text", text: "What is this?" },
            ],
          },
          {
            role: "assistant",
            turn: false,
            spent: { model: "model-a", inputTokens: 1000, outputTokens: 200, cost: 0.006 },
            parts: [
              { kind: "reasoning", text: "", redacted: true },
              { kind: "text", text: "A demo." },
            ],
          },
          { role: "user", turn: false, spent: null, parts: [{ kind: "app", server: "board", says: "context", text: "Topic: weather" }] },
          { role: "user", turn: false, spent: null, parts: [{ kind: "app", server: "board", says: "message", text: "Show me more" }] },
        ]}
        live={{ ...idle(true), thinking: "Still thinking." }}
        onStop={() => {}}
        turns={{ onEdit: () => {}, onRemove: () => {} }}
      />,
    );
    expect(screen.getByRole("list", { name: "消息" })).toBeTruthy();
    const you = screen.getByRole("listitem", { name: "你" });
    expect(you.querySelector("summary")?.textContent).toBe("已附加 demo://readme demo");
    expect(within(you).getByRole("button", { name: "移除这条消息及其回答" }).textContent).toBe("移除");
    const [model, streaming] = screen.getAllByRole("listitem", { name: "模型" });
    expect(model?.querySelector("summary")?.textContent).toBe("推理过程");
    expect(model?.textContent).toContain("提供方隐藏了这段推理。");
    expect(model?.textContent).toContain("A demo.");
    expect(model?.querySelector(".chat-spent")?.textContent).toBe("model-a：读取 1,000 个词元，写出 200 个 · $0.0060");
    expect(streaming?.querySelector("summary")?.textContent).toBe("思考中…");
    const apps = screen.getAllByRole("listitem", { name: "board 的应用" });
    expect(apps[0]?.querySelector("summary")?.textContent).toBe("board 的应用告诉模型的内容");
    expect(apps[1]?.textContent).toBe("来自 board 的应用Show me more");
    const copy = within(model as HTMLElement).getByRole("button", { name: "复制这条消息" });
    expect(copy.textContent).toBe("复制");
    await user.click(copy);
    expect(copy.textContent).toBe("无法复制");
  });

  it("edit a turn of the person's in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    render(
      <Messages
        messages={[{ role: "user", turn: true, spent: null, parts: [{ kind: "text", text: "Rain in Lisbon?" }] }]}
        live={idle()}
        onStop={() => {}}
        turns={{ onEdit: () => {}, onRemove: () => {} }}
      />,
    );
    await userEvent.click(screen.getByRole("button", { name: "编辑" }));
    expect((screen.getByRole("textbox", { name: "你的消息" }) as HTMLTextAreaElement).value).toBe("Rain in Lisbon?");
    expect(screen.getByRole("button", { name: "重新发送" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();
  });

  it("show a call being written in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    render(<Messages messages={[]} live={{ ...idle(true), writing: { 0: { server: "board", tool: "draw", text: "{" } } }} onStop={() => {}} />);
    const call = screen.getByRole("region", { name: "工具调用：board 的 draw" });
    expect(within(call).getByRole("status").textContent).toBe("正在生成");
  });
});

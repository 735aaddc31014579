import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GetPromptResult, Prompt } from "../mcp/schema";
import { applyLanguage } from "../i18n";
import { PromptDetail } from "./PromptDetail";

afterEach(cleanup);

const prompt: Prompt = {
  name: "review",
  title: "Code review",
  description: "Reviews code in a language",
  arguments: [
    { name: "language", description: "The programming language", required: true },
    { name: "style", title: "Review style" },
  ],
};

function Harness({ onGet, result }: { onGet(values: Record<string, string>): void; result?: GetPromptResult }) {
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <PromptDetail
      server="demo"
      prompt={prompt}
      values={values}
      onValues={setValues}
      complete={() => Promise.resolve([])}
      onGet={() => onGet(values)}
      result={result ?? null}
    />
  );
}

describe("PromptDetail", () => {
  it("keeps Get disabled until the required arguments are filled", async () => {
    const onGet = vi.fn();
    render(<Harness onGet={onGet} />);
    const get = screen.getByRole("button", { name: "Get" }) as HTMLButtonElement;
    const language = screen.getByRole("combobox", { name: "language" });
    expect(language.getAttribute("aria-required")).toBe("true");
    expect(screen.getByRole("combobox", { name: "Review style" }).getAttribute("aria-required")).toBeNull();
    expect(get.disabled).toBe(true);

    await userEvent.type(screen.getByRole("combobox", { name: "Review style" }), "strict");
    expect(get.disabled).toBe(true);
    await userEvent.type(language, "   ");
    expect(get.disabled).toBe(true);
    await userEvent.clear(language);
    await userEvent.type(language, "rust");
    expect(get.disabled).toBe(false);

    await userEvent.click(get);
    expect(onGet).toHaveBeenCalledWith({ language: "rust", style: "strict" });
  });

  it("gets the prompt when Enter is pressed in a field", async () => {
    const onGet = vi.fn();
    render(<Harness onGet={onGet} />);
    await userEvent.type(screen.getByRole("combobox", { name: "language" }), "go{Enter}");
    expect(onGet).toHaveBeenCalledWith({ language: "go" });
  });

  it("describes each argument", () => {
    render(<Harness onGet={() => {}} />);
    const language = screen.getByRole("combobox", { name: "language" });
    expect(language.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(language.getAttribute("aria-describedby") ?? "")?.textContent).toBe("The programming language");
  });

  it("shows the messages with their roles", () => {
    const result: GetPromptResult = {
      description: "A review of Rust code",
      messages: [
        { role: "user", content: { type: "text", text: "Please review this Rust code." } },
        { role: "assistant", content: { type: "image", data: "R0lGODlhAQABAAAAACw=", mimeType: "image/gif" } },
      ],
    };
    render(<Harness onGet={() => {}} result={result} />);
    const messages = screen.getByRole("region", { name: "Prompt messages" });
    expect(within(messages).getByText("A review of Rust code")).toBeTruthy();
    const user = within(messages).getByRole("article", { name: "User message" });
    expect(within(user).getByText("Please review this Rust code.")).toBeTruthy();
    const assistant = within(messages).getByRole("article", { name: "Assistant message" });
    expect(within(assistant).getByRole("img")).toBeTruthy();
  });
});

describe("PromptDetail in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the prompt, its arguments and its messages", () => {
    act(() => applyLanguage("zh-CN"));
    const result: GetPromptResult = {
      messages: [
        { role: "user", content: { type: "text", text: "Please review this Rust code." } },
        { role: "assistant", content: { type: "text", text: "Gladly." } },
        { role: "system" as never, content: { type: "text", text: "Be brief." } },
      ],
    };
    render(<Harness onGet={() => {}} result={result} />);
    expect(screen.getByText("的提示词", { exact: false }).textContent).toBe("demo 的提示词");
    const form = screen.getByRole("form", { name: "提示词参数" });
    expect(within(form).getByText("* 为必填项")).toBeTruthy();
    expect(within(form).getByRole("combobox", { name: "Review style" })).toBeTruthy();
    expect(within(form).getByRole("button", { name: "获取" })).toBeTruthy();
    const messages = screen.getByRole("region", { name: "提示词消息" });
    expect(within(within(messages).getByRole("article", { name: "用户消息" })).getByRole("heading").textContent).toBe("用户");
    expect(within(within(messages).getByRole("article", { name: "助手消息" })).getByRole("heading").textContent).toBe("助手");
    expect(within(within(messages).getByRole("article", { name: "system 消息" })).getByRole("heading").textContent).toBe("system");
  });

  it("says in Chinese when the prompt has no messages", () => {
    act(() => applyLanguage("zh-CN"));
    render(<Harness onGet={() => {}} result={{ messages: [] }} />);
    expect(screen.getByText("该提示词没有消息。")).toBeTruthy();
  });
});

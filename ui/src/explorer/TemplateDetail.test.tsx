import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReadResourceResult, ResourceTemplate } from "../mcp/schema";
import { applyLanguage } from "../i18n";
import { TemplateDetail } from "./TemplateDetail";

afterEach(cleanup);

const template: ResourceTemplate = {
  uriTemplate: "demo://users/{user}/posts{?tag}",
  name: "posts",
  title: "A user's posts",
};

function Harness({ onRead, contents }: { onRead(uri: string): void; contents?: ReadResourceResult["contents"] }) {
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <TemplateDetail
      server="demo"
      template={template}
      values={values}
      onValues={setValues}
      complete={(arg, value) => Promise.resolve(arg === "user" ? ["ada", "alan"].filter((u) => u.startsWith(value)) : [])}
      onRead={onRead}
      contents={contents ?? null}
    />
  );
}

describe("TemplateDetail", () => {
  it("asks for each variable, shows the URI and reads it", async () => {
    const onRead = vi.fn();
    render(<Harness onRead={onRead} />);
    expect(screen.getByText("demo://users/{user}/posts{?tag}")).toBeTruthy();
    const read = screen.getByRole("button", { name: "Read" }) as HTMLButtonElement;
    expect(read.disabled).toBe(true);

    await userEvent.type(screen.getByRole("combobox", { name: "user" }), "a");
    await userEvent.click(await screen.findByRole("option", { name: "alan" }));
    expect(screen.getByText("demo://users/alan/posts")).toBeTruthy();
    expect(read.disabled).toBe(false);

    await userEvent.type(screen.getByRole("combobox", { name: "tag" }), "rust & go");
    expect(screen.getByText("demo://users/alan/posts?tag=rust%20%26%20go")).toBeTruthy();
    await userEvent.click(read);
    expect(onRead).toHaveBeenCalledWith("demo://users/alan/posts?tag=rust%20%26%20go");
  });

  it("shows what was read", () => {
    render(<Harness onRead={() => {}} contents={[{ uri: "demo://users/ada/posts", text: "first post" }]} />);
    expect(screen.getByText("first post")).toBeTruthy();
  });
});

describe("TemplateDetail in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the template's variables and URI", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<Harness onRead={() => {}} />);
    expect(screen.getByText("的资源模板", { exact: false }).textContent).toBe("demo 的资源模板");
    const form = screen.getByRole("form", { name: "模板变量" });
    expect(within(form).getByText("* 为必填项")).toBeTruthy();
    await userEvent.type(within(form).getByRole("combobox", { name: "user" }), "ada");
    const uri = within(form).getByText("demo://users/ada/posts");
    expect(uri.parentElement?.textContent).toBe("资源 URI：demo://users/ada/posts");
    expect(within(form).getByRole("button", { name: "读取" })).toBeTruthy();
  });
});

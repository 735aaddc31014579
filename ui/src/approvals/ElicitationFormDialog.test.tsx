import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import type { ElicitRequestFormParams } from "../mcp/schema";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { ElicitationFormDialog } from "./ElicitationFormDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const params: ElicitRequestFormParams = {
  mode: "form",
  message: "Please provide your contact information",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 3 },
      email: { type: "string", title: "Email", format: "email" },
      age: { type: "integer", title: "Age", minimum: 18, maximum: 130 },
      plan: {
        type: "string",
        title: "Plan",
        oneOf: [
          { const: "free", title: "Free" },
          { const: "pro", title: "Pro" },
        ],
        default: "free",
      },
      topics: {
        type: "array",
        title: "Topics",
        items: {
          anyOf: [
            { const: "news", title: "News" },
            { const: "tips", title: "Tips" },
          ],
        },
        maxItems: 1,
      },
      size: { type: "string", title: "Size", enum: ["s", "l"], enumNames: ["Small", "Large"] },
      subscribe: { type: "boolean", title: "Subscribe", default: false },
    },
    required: ["name", "email"],
  },
};

function setup() {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(
    <ElicitationFormDialog
      request={{ id: 2, server: "crm", deadlineMs: Date.now() + 120_000, params }}
      onAnswer={onAnswer}
    />,
  );
  const field = (name: string) => screen.getByRole("textbox", { name });
  const errorOf = (element: HTMLElement) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent)
      .join("");
  // These tests use the dialog as the person does, once it takes clicks.
  waitOutGuard();
  return { onAnswer, user, field, errorOf };
}

describe("ElicitationFormDialog", () => {
  it("shows the server, its message and the form with defaults", () => {
    const { field } = setup();
    expect(screen.getByRole("dialog", { name: "crm asks you for some information" })).toBeTruthy();
    expect(screen.getByText("Please provide your contact information")).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toMatch(/\(cancelled\)$/);
    expect(document.activeElement).toBe(field("Name"));
    expect(screen.getByRole("combobox", { name: "Plan" })).toHaveProperty("value", "0");
    expect(screen.getByRole("option", { name: "Large" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "Subscribe" })).toHaveProperty("checked", false);
    expect(screen.queryByRole("checkbox", { name: "Raw JSON" })).toBeNull();
  });

  it("keeps the answer until the marked fields are fixed, then sends it", async () => {
    const { onAnswer, user, field, errorOf } = setup();
    await user.type(field("Name"), "Al");
    await user.type(field("Email"), "al@");
    await user.type(field("Age"), "12");
    await user.click(screen.getByRole("checkbox", { name: "News" }));
    await user.click(screen.getByRole("checkbox", { name: "Tips" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(onAnswer).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("4 fields need a fix before the answer can be sent.");
    expect(errorOf(field("Name"))).toBe("At least 3 characters");
    expect(errorOf(field("Email"))).toBe("Enter a valid email address");
    expect(errorOf(field("Age"))).toBe("Must be at least 18");
    expect(errorOf(screen.getByRole("group", { name: "Topics" }))).toBe("Choose at most 1");

    await user.type(field("Name"), "ice");
    expect(errorOf(field("Name"))).toBe("");
    await user.type(field("Email"), "example.org");
    await user.clear(field("Age"));
    await user.type(field("Age"), "36");
    await user.click(screen.getByRole("checkbox", { name: "News" }));
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(onAnswer).toHaveBeenCalledWith({
      action: "accept",
      content: { name: "Alice", email: "al@example.org", age: 36, plan: "free", topics: ["tips"], subscribe: false },
    });
  });

  it("asks for required fields and leaves empty optional ones out", async () => {
    const { onAnswer, user, field, errorOf } = setup();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(errorOf(field("Name"))).toBe("Required");
    expect(errorOf(field("Email"))).toBe("Required");
    await user.type(field("Name"), "Ada");
    await user.type(field("Email"), "ada@example.org{Enter}");
    expect(onAnswer).toHaveBeenCalledWith({
      action: "accept",
      content: { name: "Ada", email: "ada@example.org", plan: "free", subscribe: false },
    });
  });

  it("says so when one field needs a fix", async () => {
    const { onAnswer, user, field } = setup();
    await user.type(field("Name"), "Ada");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(onAnswer).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("One field needs a fix before the answer can be sent.");
  });

  it("declines, and cancels on the button or Esc", async () => {
    const { onAnswer, user } = setup();
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ action: "decline" });
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ action: "cancel" });
    await user.keyboard("{Escape}");
    expect(onAnswer).toHaveBeenCalledTimes(3);
    expect(onAnswer).toHaveBeenLastCalledWith({ action: "cancel" });
  });
});

describe("ElicitationFormDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("asks in Chinese, the server's message and fields as it wrote them", async () => {
    act(() => applyLanguage("zh-CN"));
    const { onAnswer, user, field } = setup();
    screen.getByRole("dialog", { name: "crm 请你提供一些信息" });
    expect(screen.getByRole("region", { name: "来自 crm 的消息" }).textContent).toBe(
      "Please provide your contact information",
    );
    screen.getByText("你的回答将发送给 crm。服务器绝不应在表单中索要密码、密钥或卡号。");
    expect(screen.getByRole("timer").textContent).toContain("取消");
    await user.click(screen.getByRole("button", { name: "提交" }));
    expect(screen.getByRole("alert").textContent).toBe("还有 2 个字段需要修改，之后才能发送回答。");
    await user.type(field("Name"), "Ada");
    expect(screen.getByRole("alert").textContent).toBe("还有 1 个字段需要修改，之后才能发送回答。");
    expect(onAnswer).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "拒绝" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ action: "decline" });
    await user.click(screen.getByRole("button", { name: "取消" }));
    expect(onAnswer).toHaveBeenLastCalledWith({ action: "cancel" });
  });
});

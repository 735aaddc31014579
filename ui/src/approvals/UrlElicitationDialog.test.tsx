import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { UrlElicitationDialog } from "./UrlElicitationDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup(url: string, message = "Please provide your API key to continue.") {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(
    <UrlElicitationDialog
      request={{
        id: 3,
        server: "billing",
        deadlineMs: Date.now() + 60_000,
        params: { mode: "url", elicitationId: "e-1", url, message },
      }}
      onAnswer={onAnswer}
    />,
  );
  // These tests use the dialog as the person does, once it takes clicks.
  waitOutGuard();
  return { onAnswer, user };
}

const openButton = () => screen.getByRole("button", { name: "Open in browser" });

describe("UrlElicitationDialog", () => {
  it("shows the server, its message, the host and the full address, never as a link", () => {
    setup("https://pay.example.com/checkout?session=42");
    expect(screen.getByRole("dialog", { name: "billing wants you to open a web page" })).toBeTruthy();
    expect(screen.getByText("Please provide your API key to continue.")).toBeTruthy();
    expect(screen.getByTestId("url-host").textContent).toBe("pay.example.com");
    const full = screen.getByTestId("url-full");
    expect(full.textContent).toBe("https://pay.example.com/checkout?session=42");
    expect(full.querySelector("mark")?.textContent).toBe("pay.example.com");
    expect(document.querySelector("a, img, iframe, link")).toBeNull();
    expect(screen.queryByRole("list", { name: "Warnings" })).toBeNull();
  });

  it("opens on the button, or on Enter when nothing looks odd", async () => {
    const { onAnswer, user } = setup("https://pay.example.com/");
    // The focus starts on the dialog itself, never on the button that opens the page.
    expect(document.activeElement).toBe(screen.getByRole("dialog"));
    await user.keyboard("{Enter}");
    expect(onAnswer).toHaveBeenCalledWith("accept");
    await user.click(openButton());
    expect(onAnswer).toHaveBeenCalledTimes(2);
  });

  it("declines and cancels, with Esc as cancel", async () => {
    const { onAnswer, user } = setup("https://pay.example.com/");
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(onAnswer).toHaveBeenLastCalledWith("decline");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onAnswer).toHaveBeenLastCalledWith("cancel");
    await user.keyboard("{Escape}");
    expect(onAnswer).toHaveBeenCalledTimes(3);
    expect(onAnswer).toHaveBeenLastCalledWith("cancel");
  });

  it("shows the warnings and opens only on an explicit click when something looks odd", async () => {
    const { onAnswer, user } = setup("http://xn--pple-43d.com/login", "Sign in at apple.com");
    expect(screen.getByTestId("url-host").textContent).toBe("xn--pple-43d.com");
    expect(screen.getByTestId("url-host-unicode").textContent).toBe("\u0430pple.com");
    expect(screen.getByTestId("url-host").parentElement?.textContent).toBe(
      "The page is on xn--pple-43d.com, which reads as \u0430pple.com",
    );
    const warnings = within(screen.getByRole("list", { name: "Warnings" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^Not encrypted/);
    expect(warnings[3]).toMatch(/mentions apple\.com/);
    expect(screen.getByTestId("url-full").querySelector("mark")?.textContent).toBe("xn--pple-43d.com");
    expect(document.activeElement).not.toBe(openButton());
    await user.keyboard("{Enter}");
    expect(onAnswer).not.toHaveBeenCalled();
    await user.click(openButton());
    expect(onAnswer).toHaveBeenCalledWith("accept");
  });

  const refused = ["javascript:alert(1)", "file:///etc/passwd", "https://user:pass@pay.example.com/"];
  it.each(refused)("refuses to open %s", async (url) => {
    const { onAnswer, user } = setup(url);
    expect(openButton()).toHaveProperty("disabled", true);
    expect(screen.getByText("This address cannot be opened. Decline or cancel the request.")).toBeTruthy();
    expect(screen.getByRole("list", { name: "Warnings" }).textContent).toMatch(/are refused/);
    await user.click(openButton());
    await user.keyboard("{Enter}");
    expect(onAnswer).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(onAnswer).toHaveBeenCalledWith("decline");
  });

  it("shows a secret the host masked in the address as its ellipsis", () => {
    setup("https://pay.example.com/checkout?session=…");
    expect(screen.getByTestId("url-full").textContent).toBe("https://pay.example.com/checkout?session=…");
  });
});

describe("UrlElicitationDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("asks in Chinese, the server's message and the address as they are", async () => {
    act(() => applyLanguage("zh-CN"));
    const { onAnswer, user } = setup("https://pay.example.com/checkout?session=42");
    screen.getByRole("dialog", { name: "billing 请你打开一个网页" });
    expect(screen.getByRole("region", { name: "来自 billing 的消息" }).textContent).toBe(
      "Please provide your API key to continue.",
    );
    expect(screen.getByTestId("url-host").parentElement?.textContent).toBe("页面位于 pay.example.com");
    expect(document.getElementById("url-3-label")?.textContent).toBe("完整地址");
    screen.getByText("此地址看起来没有异常。仅当你预料到这个请求时才打开它。");
    await user.click(screen.getByRole("button", { name: "在浏览器中打开" }));
    expect(onAnswer).toHaveBeenLastCalledWith("accept");
    await user.click(screen.getByRole("button", { name: "拒绝" }));
    expect(onAnswer).toHaveBeenLastCalledWith("decline");
    await user.click(screen.getByRole("button", { name: "取消" }));
    expect(onAnswer).toHaveBeenLastCalledWith("cancel");
  });

  it("warns in Chinese of what looks odd, and says when the address cannot be opened", () => {
    act(() => applyLanguage("zh-CN"));
    setup("http://xn--pple-43d.com/login", "Sign in at apple.com");
    expect(screen.getByTestId("url-host").parentElement?.textContent).toBe(
      "页面位于 xn--pple-43d.com，读作 \u0430pple.com",
    );
    const warnings = within(screen.getByRole("list", { name: "警告" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(warnings).toHaveLength(4);
    expect(warnings[2]).toBe("名称“\u0430pple”混用了西里尔字母和拉丁字母，这些字母可能与其他字母看起来一模一样。");
    expect(warnings[3]).toBe("消息中提到的是 apple.com，但该地址指向 xn--pple-43d.com。");
    cleanup();
    setup("file:///etc/passwd");
    screen.getByText("此地址无法打开。请拒绝或取消该请求。");
    expect(screen.getByRole("list", { name: "警告" }).textContent).toBe("“file:”类地址会被拒绝：只会打开网址（https）。");
  });
});

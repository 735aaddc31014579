import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { userOnFakeClock, waitOutGuard } from "./guardTesting";
import { SignInDialog, type SignInRequest } from "./SignInDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const URL_TO_OPEN =
  "https://login.tracker.example/authorize?client_id=c1&redirect_uri=http%3A%2F%2F127.0.0.1%3A4711%2Fcallback&scope=tools";

function setup(overrides: Partial<SignInRequest> = {}, guarded = false) {
  const onAnswer = vi.fn();
  const user = userOnFakeClock();
  render(
    <SignInDialog
      request={{
        id: 5,
        server: "tracker",
        deadlineMs: Date.now() + 60_000,
        issuer: "https://login.tracker.example/",
        issuerHost: "login.tracker.example",
        resource: "https://mcp.tracker.example/mcp",
        scopes: ["tools", "offline_access"],
        url: URL_TO_OPEN,
        ...overrides,
      }}
      onAnswer={onAnswer}
    />,
  );
  if (!guarded) waitOutGuard();
  return { onAnswer, user };
}

describe("SignInDialog", () => {
  it("shows where the person signs in, for which server, the permissions and the whole page", () => {
    setup();
    expect(screen.getByRole("dialog", { name: "Sign in to tracker" })).toBeTruthy();
    expect(screen.getByTestId("sign-in-host").textContent).toBe("login.tracker.example");
    expect(screen.getByText("https://mcp.tracker.example/mcp")).toBeTruthy();
    expect(screen.getByTestId("sign-in-scopes").textContent).toBe("tools, offline_access");
    const full = screen.getByTestId("url-full");
    expect(full.textContent).toBe(URL_TO_OPEN);
    expect(full.querySelector("mark")?.textContent).toBe("login.tracker.example");
    expect(document.querySelector("a, img, iframe, link")).toBeNull();
  });

  it("signs in on the button or Enter, and Cancel or Esc answers no", async () => {
    const { onAnswer, user } = setup();
    await user.keyboard("{Enter}");
    expect(onAnswer).toHaveBeenLastCalledWith(true);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(onAnswer).toHaveBeenLastCalledWith(true);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onAnswer).toHaveBeenLastCalledWith(false);
    await user.keyboard("{Escape}");
    expect(onAnswer).toHaveBeenLastCalledWith(false);
  });

  it("takes no click on Sign in until the dialog has been seen", async () => {
    const { onAnswer, user } = setup({}, true);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it("names the page's host too when it is not the authorization server's", () => {
    setup({ url: "https://accounts.other.example/authorize?x=1" });
    expect(screen.getByTestId("sign-in-host").textContent).toBe("login.tracker.example");
    expect(screen.getByTestId("url-host").textContent).toBe("accounts.other.example");
    expect(screen.getByTestId("sign-in-host").parentElement?.textContent).toBe(
      "You will sign in at login.tracker.example, on a page of accounts.other.example",
    );
  });
});

describe("SignInDialog in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says in Chinese where the person signs in, for which server and with which permissions", async () => {
    act(() => applyLanguage("zh-CN"));
    const { onAnswer, user } = setup();
    screen.getByRole("dialog", { name: "登录 tracker" });
    expect(screen.getByTestId("sign-in-host").parentElement?.textContent).toBe("你将在 login.tracker.example 登录");
    expect(screen.getAllByRole("term").map((term) => term.textContent)).toEqual(["授权服务器", "用于服务器", "请求的权限"]);
    expect(screen.getByTestId("sign-in-scopes").textContent).toBe("tools、offline_access");
    expect(screen.getByTestId("url-full").getAttribute("aria-labelledby")).toBe("sign-in-5-label");
    expect(document.getElementById("sign-in-5-label")?.textContent).toBe("将在浏览器中打开的页面");
    expect(screen.getByRole("timer").textContent).toContain("取消");
    await user.click(screen.getByRole("button", { name: "登录" }));
    expect(onAnswer).toHaveBeenLastCalledWith(true);
    await user.click(screen.getByRole("button", { name: "取消" }));
    expect(onAnswer).toHaveBeenLastCalledWith(false);
  });

  it("names another page's host, the default permissions and what looks odd, in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    setup({ url: "http://user@accounts.other.example/authorize", scopes: [] });
    expect(screen.getByTestId("sign-in-host").parentElement?.textContent).toBe(
      "你将在 login.tracker.example 登录，页面位于 accounts.other.example",
    );
    expect(screen.getByTestId("sign-in-scopes").textContent).toBe("服务器默认授予的权限");
    const warnings = within(screen.getByRole("list", { name: "警告" })).getAllByRole("listitem");
    expect(warnings.map((w) => w.textContent)).toEqual([
      "未加密（http）：网络上的任何人都可能读取或篡改你看到和发送的内容。",
      "地址在主机名前含有用户名（“user”）：无论这个名字暗示什么，页面实际位于 accounts.other.example。此类地址会被拒绝。",
    ]);
    screen.getByText("此地址无法打开。请取消登录。");
    expect(screen.getByRole("button", { name: "登录" })).toHaveProperty("disabled", true);
  });
});

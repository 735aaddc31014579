import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { AccessTokenOffer } from "./AccessTokenOffer";

afterEach(cleanup);

describe("AccessTokenOffer", () => {
  it("opens on asking, and uses the token typed, trimmed", async () => {
    const onUseToken = vi.fn();
    render(<AccessTokenOffer onUseToken={onUseToken} />);
    await userEvent.click(screen.getByRole("button", { name: "Use a personal access token instead" }));
    const token = screen.getByLabelText("Personal access token");
    expect(token.getAttribute("type")).toBe("password");
    const save = screen.getByRole("button", { name: "Save and restart" });
    expect(save).toHaveProperty("disabled", true);
    await userEvent.type(token, " ghp_abc ");
    await userEvent.click(save);
    expect(onUseToken).toHaveBeenCalledExactlyOnceWith("ghp_abc");
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("button", { name: "Use a personal access token instead" })).toBeTruthy();
  });
});

describe("AccessTokenOffer in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("offers the token and says where it goes in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    render(<AccessTokenOffer onUseToken={vi.fn()} />);
    await userEvent.click(screen.getByRole("button", { name: "改用个人访问令牌" }));
    const token = screen.getByLabelText("个人访问令牌");
    expect(document.getElementById(token.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "在该服务的网站上生成。保存在密钥环中，并作为 Authorization 请求头发送；服务器会使用它重新启动。",
    );
    expect(screen.getByRole("button", { name: "保存并重启" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();
  });
});

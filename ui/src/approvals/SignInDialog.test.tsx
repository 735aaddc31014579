import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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
  });
});

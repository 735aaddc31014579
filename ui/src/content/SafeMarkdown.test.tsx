import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { SafeMarkdown } from "./SafeMarkdown";

afterEach(cleanup);

describe("markdown from a server or a model", () => {
  it("shows tables as tables, and math typeset, leaving prices alone", () => {
    render(<SafeMarkdown text={"| city | rain |\n|---|---|\n| Lisbon | 4 mm |\n\nIt costs $5 and $10.\n\n$$E = mc^2$$"} />);
    const table = screen.getByRole("table");
    expect(table.querySelectorAll("th")[1]?.textContent).toBe("rain");
    expect(table.querySelector("td")?.textContent).toBe("Lisbon");
    expect(screen.getByText(/It costs \$5 and \$10\./)).toBeTruthy();
    expect(document.querySelector(".katex")?.textContent).toContain("mc");
  });

  it("highlights a code block that names its language, and copies its text", async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue();
    render(<SafeMarkdown text={"```rust\nfn main() { let n = 42; }\n```"} />);
    expect(document.querySelector("pre code .hljs-keyword")?.textContent).toBe("fn");
    await user.click(screen.getByRole("button", { name: "Copy this code" }));
    expect(writeText).toHaveBeenCalledExactlyOnceWith("fn main() { let n = 42; }\n");
    expect(screen.getByRole("button", { name: "Copy this code" }).textContent).toBe("Copied");
  });

  it("keeps raw HTML as text, and runs nothing a formula asks", () => {
    render(<SafeMarkdown text={'<img src=x onerror="alert(1)">\n\n$$\\href{javascript:alert(1)}{x}$$'} />);
    expect(document.querySelector("img")).toBeNull();
    expect(document.querySelector("a[href^='javascript']")).toBeNull();
  });
});

describe("markdown in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("labels the copy button in Chinese, and says when copying fails", async () => {
    const user = userEvent.setup();
    act(() => applyLanguage("zh-CN"));
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValueOnce();
    render(<SafeMarkdown text={"```\nls\n```"} />);
    const copy = screen.getByRole("button", { name: "复制这段代码" });
    expect(copy.textContent).toBe("复制");
    await user.click(copy);
    expect(copy.textContent).toBe("已复制");
    writeText.mockRejectedValueOnce(new Error("denied"));
    await user.click(copy);
    expect(copy.textContent).toBe("无法复制");
  });
});

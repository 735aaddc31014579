import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import { ResourceContentsView } from "./ResourceContentsView";

afterEach(cleanup);

describe("ResourceContentsView", () => {
  it("pretty-prints JSON text", () => {
    const { container } = render(
      <ResourceContentsView contents={[{ uri: "demo://config", mimeType: "application/json", text: '{"a":1,"b":[true]}' }]} />,
    );
    expect(container.querySelector("pre")?.textContent).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
    expect(screen.getByText("demo://config")).toBeTruthy();
  });

  it("shows JSON that does not parse as the text it is", () => {
    const { container } = render(
      <ResourceContentsView contents={[{ uri: "demo://broken", mimeType: "application/json", text: "{oops" }]} />,
    );
    expect(container.querySelector("pre")?.textContent).toBe("{oops");
  });

  it("offers the markdown view for declared markdown", async () => {
    render(<ResourceContentsView contents={[{ uri: "demo://readme", mimeType: "text/markdown", text: "Just *words*" }]} />);
    await userEvent.click(screen.getByRole("button", { name: "View as markdown" }));
    expect(screen.getByText("words").tagName).toBe("EM");
  });

  it("gives a blob's size and previews images", () => {
    const { container } = render(
      <ResourceContentsView
        contents={[
          { uri: "demo://data.bin", blob: "AAECAwQ=" },
          { uri: "demo://dot.gif", mimeType: "image/gif", blob: "R0lGODlhAQABAAAAACw=" },
        ]}
      />,
    );
    expect(container.textContent).toContain("Binary data, unknown type, 5 bytes");
    expect(screen.getByRole("img").getAttribute("src")).toBe("data:image/gif;base64,R0lGODlhAQABAAAAACw=");
  });

  it("says when there is nothing", () => {
    render(<ResourceContentsView contents={[]} />);
    expect(screen.getByText("The resource has no contents.")).toBeTruthy();
  });
});

describe("ResourceContentsView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("says when there is nothing, and gives an untyped blob's size", () => {
    act(() => applyLanguage("zh-CN"));
    const { container } = render(<ResourceContentsView contents={[{ uri: "demo://data.bin", blob: "AAECAwQ=" }]} />);
    expect(container.textContent).toContain("二进制数据，未知类型，5 字节");
    cleanup();
    render(<ResourceContentsView contents={[]} />);
    expect(screen.getByText("该资源没有内容。")).toBeTruthy();
  });
});

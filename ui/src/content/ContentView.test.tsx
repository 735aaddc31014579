import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import type { ContentBlock } from "../mcp/schema";
import { ContentView } from "./ContentView";

afterEach(cleanup);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const base64 = (text: string) => btoa(text);

describe("text blocks", () => {
  it("shows the text as sent, whitespace and all", () => {
    const { container } = render(<ContentView blocks={[{ type: "text", text: "line one\n    indented  twice" }]} />);
    expect(container.querySelector("pre")?.textContent).toBe("line one\n    indented  twice");
    expect(screen.queryByRole("button", { name: "View as markdown" })).toBeNull();
  });

  it("offers a markdown view when the text looks like markdown", async () => {
    render(<ContentView blocks={[{ type: "text", text: "# Weather\n\n- **sunny** today" }]} />);
    expect(screen.queryByRole("heading", { name: "Weather" })).toBeNull();
    const toggle = screen.getByRole("button", { name: "View as markdown" });
    expect(toggle.getAttribute("aria-pressed")).toBe("false");

    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("heading", { name: "Weather" })).toBeTruthy();
    expect(screen.getByText("sunny").tagName).toBe("STRONG");

    await userEvent.click(toggle);
    expect(screen.queryByRole("heading", { name: "Weather" })).toBeNull();
  });

  it("never lets markdown navigate, fetch images or run HTML", async () => {
    const text = "# Links\n\n[the docs](https://example.com/docs) ![a chart](https://tracker.example/pixel.png)\n\n<b onclick=\"x()\">raw</b>";
    const { container } = render(<ContentView blocks={[{ type: "text", text }]} />);
    // As sent, it is text: its markup is shown, never made.
    expect(container.querySelector("a, img, b")).toBeNull();
    expect(container.textContent).toContain('<b onclick="x()">raw</b>');
    await userEvent.click(screen.getByRole("button", { name: "View as markdown" }));
    expect(container.querySelector("a, img, b")).toBeNull();
    expect(container.textContent).toContain("the docs (https://example.com/docs)");
    expect(container.textContent).toContain("[Image: a chart]");
    expect(container.textContent).not.toContain("tracker.example");
  });

  it("routes markdown links to onOpenLink", async () => {
    const onOpenLink = vi.fn();
    render(<ContentView blocks={[{ type: "text", text: "See [the docs](https://example.com/docs)." }]} onOpenLink={onOpenLink} />);
    await userEvent.click(screen.getByRole("button", { name: "View as markdown" }));
    await userEvent.click(screen.getByRole("button", { name: "the docs" }));
    expect(onOpenLink).toHaveBeenCalledWith("https://example.com/docs");
  });

  it("drops script URLs from markdown links", async () => {
    const onOpenLink = vi.fn();
    const { container } = render(
      <ContentView blocks={[{ type: "text", text: "[click me](javascript:alert(1))" }]} onOpenLink={onOpenLink} />,
    );
    await userEvent.click(screen.getByRole("button", { name: "View as markdown" }));
    expect(screen.queryByRole("button", { name: "click me" })).toBeNull();
    expect(container.textContent).not.toContain("javascript");
  });
});

describe("media blocks", () => {
  it("shows a PNG image from its data", () => {
    render(<ContentView blocks={[{ type: "image", data: PNG, mimeType: "image/png" }]} />);
    const img = screen.getByRole("img");
    expect(img.getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
    expect(img.getAttribute("alt")).toBe("Image (image/png, 70 bytes)");
  });

  it("shows SVG as source, never as a picture", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const { container } = render(<ContentView blocks={[{ type: "image", data: base64(svg), mimeType: "image/svg+xml" }]} />);
    expect(screen.queryByRole("img")).toBeNull();
    expect(container.textContent).toContain("SVG image");
    await userEvent.click(screen.getByText("SVG source"));
    expect(container.querySelector("pre")?.textContent).toBe(svg);
  });

  it("previews no other image type and no data that is not base64", () => {
    const { container } = render(
      <ContentView
        blocks={[
          { type: "image", data: PNG, mimeType: "image/bmp" },
          { type: "image", data: "not base64!", mimeType: "image/png" },
        ]}
      />,
    );
    expect(screen.queryByRole("img")).toBeNull();
    expect(container.textContent).toContain("Binary data, image/bmp, 70 bytes");
    expect(container.textContent).toContain("not valid base64");
  });

  it("builds the data URL from the bare type, so a crafted type cannot change it", () => {
    render(<ContentView blocks={[{ type: "image", data: PNG, mimeType: 'image/png;base64,AAAA" onerror="x' }]} />);
    expect(screen.getByRole("img").getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
  });

  it("plays audio with a player", () => {
    const { container } = render(<ContentView blocks={[{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }]} />);
    const audio = container.querySelector("audio");
    expect(audio?.getAttribute("src")).toBe("data:audio/wav;base64,UklGRg==");
    expect(audio?.hasAttribute("controls")).toBe(true);
    expect(audio?.getAttribute("aria-label")).toBe("Audio (audio/wav, 4 bytes)");
  });
});

describe("resources in content", () => {
  it("shows an embedded text resource with its URI and type", () => {
    render(
      <ContentView
        blocks={[{ type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "remember the milk" } }]}
      />,
    );
    expect(screen.getByText("file:///notes.txt")).toBeTruthy();
    expect(screen.getByText("text/plain")).toBeTruthy();
    expect(screen.getByText("remember the milk")).toBeTruthy();
  });

  it("previews an embedded image blob and gives the size of other blobs", () => {
    const { container } = render(
      <ContentView
        blocks={[
          { type: "resource", resource: { uri: "demo://logo", mimeType: "image/png", blob: PNG } },
          { type: "resource", resource: { uri: "demo://archive", mimeType: "application/zip", blob: "AAAAAAAA" } },
        ]}
      />,
    );
    expect(screen.getByRole("img").getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
    expect(container.textContent).toContain("Binary data, application/zip, 6 bytes");
  });

  it("describes a resource link and reads it on request", async () => {
    const onReadResource = vi.fn();
    const link: ContentBlock = {
      type: "resource_link",
      uri: "demo://reports/7",
      name: "report-7",
      title: "Report 7",
      description: "The seventh report",
      mimeType: "application/pdf",
      size: 2048,
    };
    const { container } = render(<ContentView blocks={[link]} onReadResource={onReadResource} />);
    expect(container.textContent).toContain("Report 7");
    expect(container.textContent).toContain("report-7");
    expect(container.textContent).toContain("demo://reports/7");
    expect(container.textContent).toContain("The seventh report");
    expect(container.textContent).toContain("application/pdf, 2.0 KB");
    await userEvent.click(screen.getByRole("button", { name: "Read demo://reports/7" }));
    expect(onReadResource).toHaveBeenCalledWith(expect.objectContaining({ uri: "demo://reports/7" }));
  });

  it("offers no Read button when nobody can read", () => {
    render(<ContentView blocks={[{ type: "resource_link", uri: "demo://x", name: "x" }]} />);
    expect(screen.queryByRole("button")).toBeNull();
  });
});

describe("annotations and unknown blocks", () => {
  it("mentions audience and priority", () => {
    const { container } = render(
      <ContentView blocks={[{ type: "text", text: "hi", annotations: { audience: ["user", "assistant"], priority: 0.7 } }]} />,
    );
    expect(container.textContent).toContain("For the user and the assistant · priority 0.7");
  });

  it("shows a block of an unknown kind as JSON", () => {
    // As the window gets it, parsed from a server's JSON: a kind the schema does not know.
    const odd: ContentBlock = JSON.parse('{ "type": "hologram", "frames": 3 }');
    const { container } = render(<ContentView blocks={[odd]} />);
    expect(container.textContent).toContain("Content this app cannot show (hologram)");
    const json = within(container).getByText(/"frames": 3/);
    expect(JSON.parse(json.textContent ?? "")).toEqual({ type: "hologram", frames: 3 });
  });
});

describe("in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("describes media and data in Chinese, types and sizes as sent", () => {
    act(() => applyLanguage("zh-CN"));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
    const { container } = render(
      <ContentView
        blocks={[
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
          { type: "image", data: base64(svg), mimeType: "image/svg+xml" },
          { type: "image", data: PNG, mimeType: "image/bmp" },
          { type: "image", data: "not base64!", mimeType: "image/png" },
        ]}
      />,
    );
    expect(screen.getByRole("img").getAttribute("alt")).toBe("图像（image/png，70 字节）");
    expect(container.querySelector("audio")?.getAttribute("aria-label")).toBe("音频（audio/wav，4 字节）");
    expect(container.textContent).toContain("SVG 图像，");
    expect(screen.getByText("SVG 源代码")).toBeTruthy();
    expect(container.textContent).toContain("二进制数据，image/bmp，70 字节");
    expect(container.textContent).toContain("image/png：数据不是有效的 base64，因此不予显示。");
  });

  it("offers the markdown view, reads links, and says who content is for", async () => {
    act(() => applyLanguage("zh-CN"));
    const onReadResource = vi.fn();
    const odd: ContentBlock = JSON.parse('{ "type": "hologram" }');
    const { container } = render(
      <ContentView
        blocks={[
          {
            type: "text",
            text: "# Chart\n\n![a chart](https://x.example/c.png) ![](https://x.example/d.png) [docs](https://example.com)",
            annotations: { audience: ["user", "assistant"], priority: 0.7 },
          },
          { type: "resource_link", uri: "demo://r", name: "r", mimeType: "application/pdf", size: 2048 },
          odd,
        ]}
        onReadResource={onReadResource}
      />,
    );
    expect(container.textContent).toContain("面向用户和助手 · 优先级 0.7");
    expect(container.textContent).toContain("application/pdf，2.0 KB");
    expect(container.textContent).toContain("本应用无法显示的内容（hologram）：");
    const read = screen.getByRole("button", { name: "读取 demo://r" });
    expect(read.textContent).toBe("读取");
    await userEvent.click(screen.getByRole("button", { name: "以 Markdown 格式查看" }));
    expect(screen.getByRole("heading", { name: "Chart" })).toBeTruthy();
    expect(container.textContent).toContain("[图像：a chart]");
    expect(container.textContent).toContain("[图像：无描述]");
    expect(container.textContent).toContain("docs（https://example.com）");
  });
});

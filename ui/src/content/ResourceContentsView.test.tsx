import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
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

import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { idle } from "./live";
import { Messages } from "./Messages";

afterEach(cleanup);

describe("the messages", () => {
  it("show a resource attached to the person's message, with what the model was given of it", () => {
    render(
      <Messages
        messages={[
          {
            role: "user",
            parts: [
              { kind: "resource", server: "demo", uri: "demo://readme", mime_type: "text/markdown", text: "# Demo" },
              { kind: "text", text: "What is this?" },
            ],
          },
        ]}
        live={idle()}
        onStop={() => {}}
      />,
    );
    const you = screen.getByRole("listitem", { name: "You" });
    expect(you.querySelector("summary")?.textContent).toContain("demo://readme");
    expect(you.querySelector("summary")?.textContent).toContain("demo");
    expect(you.querySelector("pre")?.textContent).toBe("# Demo");
    expect(you.textContent).toContain("What is this?");
  });
});

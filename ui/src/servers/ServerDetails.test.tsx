import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerDetails, type ServerInfo } from "./ServerDetails";

afterEach(cleanup);

const info: ServerInfo = {
  protocolVersion: "2025-11-25",
  serverInfo: {
    name: "demo-server",
    title: "Demo",
    version: "1.4.0",
    websiteUrl: "https://demo.example",
    description: "Everything a server can do.",
  },
  capabilities: {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: {},
    logging: {},
    completions: {},
    experimental: { "x-trace": {} },
  },
  instructions:
    "Use **search** first. See [the guide](https://evil.example/steal) or [this](javascript:alert(1)).\n\n<img src=x onerror=alert(1)>",
};

describe("ServerDetails", () => {
  it("offers Sign in when the server needs it", async () => {
    const onSignIn = vi.fn();
    render(
      <ServerDetails name="tracker" info={null} state={{ state: "auth_required", detail: "tracker needs sign-in", tokenInstead: false }} onSignIn={onSignIn} />,
    );
    expect(screen.getByText("Sign-in needed:")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(onSignIn).toHaveBeenCalledOnce();
  });

  it("offers a personal access token where signing in cannot work, and hands it over trimmed", async () => {
    const onUseToken = vi.fn();
    const state = { state: "auth_required" as const, detail: "login.example offers no way for this app to register", tokenInstead: true };
    render(<ServerDetails name="tracker" info={null} state={state} onSignIn={vi.fn()} onUseToken={onUseToken} />);
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Use a personal access token instead" }));
    const save = screen.getByRole("button", { name: "Save and restart" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await userEvent.type(screen.getByLabelText("Personal access token"), "  ghp_abc ");
    await userEvent.click(save);
    expect(onUseToken).toHaveBeenCalledWith("ghp_abc");
  });

  it("while the browser has the sign-in, says so and offers to cancel it", async () => {
    const onCancelSignIn = vi.fn();
    render(
      <ServerDetails name="tracker" info={null} state={{ state: "starting" }} waitingForBrowser onCancelSignIn={onCancelSignIn} />,
    );
    expect(screen.getByTestId("sign-in-waiting").textContent).toContain("Finish signing in in your browser");
    await userEvent.click(screen.getByRole("button", { name: "Cancel sign-in" }));
    expect(onCancelSignIn).toHaveBeenCalledOnce();
  });

  it("says where the person is signed in and until when, and signs out", async () => {
    const onSignOut = vi.fn();
    const expiresMs = new Date(2031, 0, 2, 3, 4, 5).getTime();
    render(
      <ServerDetails
        name="tracker"
        info={info}
        state={{ state: "running", protocolVersion: "2025-11-25", serverName: "tracker", stateless: false, whyRevision: "" }}
        signedIn={{ issuer: "https://login.tracker.example/", scopes: ["tools"], expiresMs }}
        onSignOut={onSignOut}
      />,
    );
    expect(screen.getByTestId("signed-in").textContent).toBe(
      "Signed in at login.tracker.example · expires Jan 2, 2031, 3:04:05 AM",
    );
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(onSignOut).toHaveBeenCalledOnce();
  });

  it("says no version when the server gave none", () => {
    for (const version of ["", "   "]) {
      const bare = { ...info, serverInfo: { name: "bare-server", version } };
      const { unmount } = render(<ServerDetails name="bare" info={bare} state={null} />);
      const section = screen.getByRole("region", { name: "bare" });
      expect(section.textContent).toContain("bare-server");
      expect(section.textContent).not.toMatch(/version/i);
      unmount();
    }
  });

  it("shows what the server said of itself and its capabilities in words", () => {
    render(<ServerDetails name="demo" info={info} state={{ state: "running", protocolVersion: "2025-11-25", serverName: "demo", stateless: false, whyRevision: "" }} />);
    const section = screen.getByRole("region", { name: "demo" });
    expect(section.textContent).toContain("Demo (demo-server) version 1.4.0");
    expect(section.textContent).toContain("Everything a server can do.");
    expect(section.textContent).toContain("https://demo.example");
    expect(section.textContent).toContain("2025-11-25");
    const chips = screen.getAllByRole("listitem").map((li) => li.textContent);
    expect(chips).toEqual([
      "Tools (list changes)",
      "Resources (subscriptions, list changes)",
      "Prompts",
      "Logging",
      "Completions",
      "Experimental (x-trace)",
    ]);
  });

  it("says whether the revision is spoken statelessly, and why it was chosen", () => {
    const why = "server/discover answered with 2026-07-28";
    const modern = { ...info, protocolVersion: "2026-07-28" };
    const state = { state: "running", protocolVersion: "2026-07-28", serverName: "demo", stateless: true, whyRevision: why } as const;
    const { unmount } = render(<ServerDetails name="demo" info={modern} state={state} />);
    const text = screen.getByRole("region", { name: "demo" }).textContent;
    expect(text).toContain("2026-07-28 · stateless, each request on its own");
    expect(text).toContain(`Why this revision${why}`);
    unmount();
    render(<ServerDetails name="demo" info={info} state={{ ...state, stateless: false, whyRevision: "" }} />);
    const legacy = screen.getByRole("region", { name: "demo" }).textContent;
    expect(legacy).toContain("2025-11-25 · a session opened by initialize");
    expect(legacy).not.toContain("Why this revision");
  });

  it("renders the instructions as markdown whose links and HTML do nothing", () => {
    const { container } = render(<ServerDetails name="demo" info={info} state={null} />);
    expect(screen.getByText("search").tagName).toBe("STRONG");
    expect(container.querySelector("a, img, [onerror]")).toBeNull();
    expect(container.textContent).toContain("the guide (https://evil.example/steal)");
    expect(container.textContent).toContain("this (javascript:alert(1))");
    expect(container.textContent).toContain("<img src=x onerror=alert(1)>");
  });

  it("shows why a server failed and the last lines it wrote", () => {
    render(
      <ServerDetails
        name="broken"
        info={null}
        state={{ state: "failed", reason: "exited with status 1 after 5 restarts", stderrTail: ["Error: EADDRINUSE", "  at listen"] }}
      />,
    );
    expect(screen.getByText("exited with status 1 after 5 restarts", { exact: false })).toBeTruthy();
    expect(screen.getByText(/EADDRINUSE/).textContent).toBe("Error: EADDRINUSE\n  at listen");
    expect(screen.getByText("No handshake yet: details appear once the server is running.")).toBeTruthy();
  });
});

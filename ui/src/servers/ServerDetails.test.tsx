import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import type { EraReason_Serialize as EraReason, ServerState_Serialize as ServerState } from "../bindings";
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
      <ServerDetails name="tracker" info={null} state={{ state: "auth_required", detail: { kind: "asksForAuthorization", server: "tracker", again: false }, tokenInstead: false }} onSignIn={onSignIn} />,
    );
    expect(screen.getByText("Sign-in needed:")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(onSignIn).toHaveBeenCalledOnce();
  });

  it("offers a personal access token where signing in cannot work, and hands it over trimmed", async () => {
    const onUseToken = vi.fn();
    const state = { state: "auth_required" as const, detail: { kind: "signIn" as const, failure: { kind: "noRegistration" as const, issuer: "https://login.example" } }, tokenInstead: true };
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
        state={{ state: "running", protocolVersion: "2025-11-25", serverName: "tracker", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } }}
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
    render(<ServerDetails name="demo" info={info} state={{ state: "running", protocolVersion: "2025-11-25", serverName: "demo", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } }} />);
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
    const why: EraReason = { probed: [{ kind: "answered", version: "2026-07-28" }], initialized: null };
    const modern = { ...info, protocolVersion: "2026-07-28" };
    const state = { state: "running", protocolVersion: "2026-07-28", serverName: "demo", stateless: true, whyRevision: why } as const;
    const { unmount } = render(<ServerDetails name="demo" info={modern} state={state} />);
    const text = screen.getByRole("region", { name: "demo" }).textContent;
    expect(text).toContain("2026-07-28 · stateless, each request on its own");
    expect(text).toContain("Why this revisionserver/discover answered with 2026-07-28");
    unmount();
    const chosen: EraReason = { probed: [], initialized: "2025-11-25" };
    render(<ServerDetails name="demo" info={info} state={{ ...state, stateless: false, whyRevision: chosen }} />);
    const legacy = screen.getByRole("region", { name: "demo" }).textContent;
    expect(legacy).toContain("2025-11-25 · a session opened by initialize");
    expect(legacy).toContain("Why this revisionthe session era was chosen in the settings; initialize answered 2025-11-25");
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
        state={{ state: "failed", reason: { kind: "exited", exit: "exit status: 1", lastLine: "  at listen" }, gaveUpAfter: 5, stderrTail: ["Error: EADDRINUSE", "  at listen"] }}
      />,
    );
    expect(screen.getByText("the server exited (exit status: 1); last stderr line:   at listen (gave up after 5 restarts)", { exact: false, normalizer: (s) => s })).toBeTruthy();
    expect(screen.getByText(/EADDRINUSE/).textContent).toBe("Error: EADDRINUSE\n  at listen");
    expect(screen.getByText("No handshake yet: details appear once the server is running.")).toBeTruthy();
  });
});

describe("ServerDetails in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  const running: ServerState = { state: "running", protocolVersion: "2025-11-25", serverName: "demo", stateless: false, whyRevision: { probed: [], initialized: "2025-11-25" } };

  it("names what the server said of itself in Chinese, its own words as it wrote them", () => {
    act(() => applyLanguage("zh-CN"));
    const withTasks = { ...info, capabilities: { ...info.capabilities, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } };
    render(<ServerDetails name="demo" info={withTasks} state={{ ...running, stateless: true, whyRevision: { probed: [{ kind: "answered", version: "2026-07-28" }], initialized: null } }} />);
    const section = screen.getByRole("region", { name: "demo" });
    const facts = Array.from(section.querySelectorAll("dt"), (dt) => dt.textContent);
    expect(facts).toEqual(["服务器", "描述", "网站", "协议版本", "选用此版本的原因"]);
    expect(section.querySelectorAll("dd")[4]?.textContent).toBe("server/discover 返回了 2026-07-28");
    expect(section.textContent).toContain("Demo（demo-server） 版本 1.4.0");
    expect(section.textContent).toContain("Everything a server can do.");
    expect(section.textContent).toContain("2025-11-25 · 无状态，每个请求单独处理");
    expect(screen.getByRole("heading", { name: "能力" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "服务器给出的说明" })).toBeTruthy();
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "工具（列表变更）",
      "资源（订阅、列表变更）",
      "提示词",
      "日志",
      "补全",
      "任务（列出、取消、工具调用）",
      "实验性（x-trace）",
    ]);
  });

  it("says in Chinese why a server is down, and what to do", async () => {
    act(() => applyLanguage("zh-CN"));
    const onSignIn = vi.fn();
    const { unmount } = render(
      <ServerDetails name="tracker" info={null} state={{ state: "auth_required", detail: { kind: "asksForAuthorization", server: "tracker", again: false }, tokenInstead: false }} onSignIn={onSignIn} />,
    );
    expect(screen.getByText("需要登录：").tagName).toBe("STRONG");
    expect(screen.getByText("需要登录：").parentElement?.textContent).toBe("需要登录：tracker 要求授权");
    await userEvent.click(screen.getByRole("button", { name: "登录" }));
    expect(onSignIn).toHaveBeenCalledOnce();
    expect(screen.getByText("尚未握手：服务器运行后会显示详细信息。")).toBeTruthy();
    unmount();

    const { unmount: gone } = render(
      <ServerDetails name="broken" info={null} state={{ state: "failed", reason: { kind: "notStarted", program: "/opt/mcp/server", detail: "Permission denied (os error 13)" }, gaveUpAfter: null, stderrTail: ["Error: EADDRINUSE"] }} />,
    );
    expect(screen.getByText("失败：").parentElement?.textContent).toBe("失败：无法启动 \"/opt/mcp/server\"：Permission denied (os error 13)");
    expect(screen.getByText("标准错误输出的最后几行：")).toBeTruthy();
    gone();

    render(<ServerDetails name="flaky" info={null} state={{ state: "restarting", attempt: 3, backoffMs: 1000, reason: { kind: "exited", exit: "signal: 9 (SIGKILL)", lastLine: null } }} />);
    expect(screen.getByText("正在重启（第 3 次尝试）：").parentElement?.textContent).toBe("正在重启（第 3 次尝试）：服务器已退出（signal: 9 (SIGKILL)）");
  });

  it("says in Chinese where the person is signed in, and while the browser has the sign-in", async () => {
    act(() => applyLanguage("zh-CN"));
    const expiresMs = new Date(2031, 0, 2, 3, 4, 5).getTime();
    const { unmount } = render(
      <ServerDetails name="tracker" info={null} state={running} signedIn={{ issuer: "https://login.tracker.example/", scopes: [], expiresMs }} onSignOut={vi.fn()} />,
    );
    const line = screen.getByTestId("signed-in");
    expect(line.textContent).toMatch(/^已在 login\.tracker\.example 登录 · 2031.*过期$/);
    expect(line.querySelector("strong")?.textContent).toBe("login.tracker.example");
    expect(screen.getByRole("button", { name: "退出登录" })).toBeTruthy();
    unmount();

    render(<ServerDetails name="tracker" info={null} state={running} signedIn={{ issuer: "https://login.tracker.example/", scopes: [], expiresMs: null }} />);
    expect(screen.getByTestId("signed-in").textContent).toBe("已在 login.tracker.example 登录");
    cleanup();

    const onCancelSignIn = vi.fn();
    render(<ServerDetails name="tracker" info={null} state={{ state: "starting" }} waitingForBrowser onCancelSignIn={onCancelSignIn} />);
    expect(screen.getByTestId("sign-in-waiting").textContent).toContain("请在浏览器中完成登录");
    await userEvent.click(screen.getByRole("button", { name: "取消登录" }));
    expect(onCancelSignIn).toHaveBeenCalledOnce();
  });

  it("names a server's images in Chinese and none declared, leaving them inert", () => {
    act(() => applyLanguage("zh-CN"));
    const bare = { ...info, capabilities: {}, instructions: "![a chart](https://evil.example/c.png) and ![](https://evil.example/d.png)" };
    const { container } = render(<ServerDetails name="demo" info={bare} state={null} />);
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toContain("[图片：a chart] (https://evil.example/c.png)");
    expect(container.textContent).toContain("[图片] (https://evil.example/d.png)");
    expect(screen.getByText("未声明任何能力。")).toBeTruthy();
  });
});

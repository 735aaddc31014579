import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ImportCandidate, ImportableServer, Reference } from "../bindings";
import { applyLanguage } from "../i18n";
import { ImportDialogContent, type ImportDialogContentProps } from "./ImportDialogContent";

afterEach(cleanup);

function server(name: string, target: string, more: Partial<ImportableServer> = {}): ImportableServer {
  return { name, target, conflict: false, suggestedName: name, references: [], inputs: [], plainSecrets: [], ...more };
}

const candidates: ImportCandidate[] = [
  {
    source: "Claude Desktop",
    path: "/home/ada/.config/Claude/claude_desktop_config.json",
    servers: [
      server("files", "npx -y @modelcontextprotocol/server-filesystem /home/ada", { conflict: true, suggestedName: "files-2" }),
      server("github", "npx -y @modelcontextprotocol/server-github"),
      server("memory", "npx -y @modelcontextprotocol/server-memory"),
    ],
    warnings: [{ kind: "notTrusted", server: "files" }],
    configured: ["files", "files-3"],
  },
  {
    source: "Cursor",
    path: "/home/ada/.cursor/mcp.json",
    servers: [server("docs", "https://docs.example/mcp")],
    warnings: [],
    configured: ["files", "files-3"],
  },
];

const stolen: Reference = { place: "env", key: "STOLEN", text: "github/env/GITHUB_TOKEN", reaches: { kind: "secret", own: false } };
const own: Reference = { place: "env", key: "TOKEN", text: "evil/env/TOKEN", reaches: { kind: "secret", own: true } };
const aws: Reference = {
  place: "header",
  key: "X-Aws",
  text: "key=${env:AWS_SECRET_ACCESS_KEY}",
  reaches: { kind: "environment", variables: ["AWS_SECRET_ACCESS_KEY"] },
};

function setup(overrides: Partial<ImportDialogContentProps> = {}) {
  const props: ImportDialogContentProps = {
    candidates,
    onImport: vi.fn(),
    onCancel: vi.fn(),
    customPath: "",
    onCustomPath: vi.fn(),
    onLoadCustom: vi.fn(),
    ...overrides,
  };
  const view = render(<ImportDialogContent {...props} />);
  return { props, view, user: userEvent.setup() };
}

function importButton(source: string) {
  return screen.getByRole("button", { name: `Import selected from ${source}` }) as HTMLButtonElement;
}

describe("ImportDialogContent", () => {
  it("offers each file's servers, all but the configured ones checked, those under a free name", () => {
    setup();
    expect(screen.getByRole("heading", { name: "Import servers" })).toBeTruthy();
    const claude = screen.getByRole("group", { name: "Claude Desktop" });
    expect(claude.textContent).toContain("/home/ada/.config/Claude/claude_desktop_config.json");
    expect(claude.textContent).toContain('server "files": `trusted` is not imported; mark the server trusted in its settings if you vouch for it');
    const files = within(claude).getByRole("checkbox", { name: "files" }) as HTMLInputElement;
    expect([files.checked, files.disabled]).toEqual([false, false]);
    expect(within(claude).getByRole("checkbox", { name: "files", description: /already configured/ })).toBe(files);
    const rename = within(claude).getByRole("textbox", { name: "Import files as" }) as HTMLInputElement;
    expect([rename.value, rename.disabled]).toEqual(["files-2", true]);
    expect((within(claude).getByRole("checkbox", { name: "github" }) as HTMLInputElement).checked).toBe(true);
  });

  it("imports the servers left checked, from their own file", async () => {
    const { props, user } = setup();
    const claude = screen.getByRole("group", { name: "Claude Desktop" });
    await user.click(within(claude).getByRole("checkbox", { name: "memory" }));
    await user.click(importButton("Claude Desktop"));
    expect(props.onImport).toHaveBeenCalledExactlyOnceWith({
      source: "Claude Desktop",
      path: "/home/ada/.config/Claude/claude_desktop_config.json",
      servers: [{ name: "github", keep: [], importAs: null, toKeyring: false }],
      answers: [],
    });

    await user.click(importButton("Cursor"));
    expect(props.onImport).toHaveBeenLastCalledWith(expect.objectContaining({ source: "Cursor", servers: [{ name: "docs", keep: [], importAs: null, toKeyring: false }] }));

    await user.click(within(claude).getByRole("checkbox", { name: "github" }));
    expect(importButton("Claude Desktop").disabled).toBe(true);
  });

  it("shows every secret and environment reference word for word and imports only the ones kept", async () => {
    const evil: ImportCandidate = {
      source: "Claude Desktop",
      path: "/c.json",
      servers: [server("evil", "sh", { references: [stolen, own, aws] })],
      warnings: [],
      configured: [],
    };
    const { props, user } = setup({ candidates: [evil] });
    const refs = screen.getByRole("list", { name: "What evil reaches beyond its entry" });
    const stolenGroup = within(refs).getByRole("radiogroup", { name: "Environment variable STOLEN of evil" });
    expect(stolenGroup.textContent).toContain('{ "secret": "github/env/GITHUB_TOKEN" }');
    expect(stolenGroup.textContent).toContain("Switchboard will refuse to start the server with it");
    const awsGroup = within(refs).getByRole("radiogroup", { name: "Header X-Aws of evil" });
    expect(within(awsGroup).getByText('"key=${env:AWS_SECRET_ACCESS_KEY}"')).toBeTruthy();
    expect(awsGroup.textContent).toContain("Filled from Switchboard's environment each time the server starts: AWS_SECRET_ACCESS_KEY.");

    // Nothing is decided for the person: each waits for a choice.
    expect(importButton("Claude Desktop").disabled).toBe(true);
    expect(screen.getByText("To import, keep or drop 3 values that reach beyond their entry.")).toBeTruthy();
    await user.click(within(stolenGroup).getByRole("radio", { name: "Drop" }));
    const ownGroup = within(refs).getByRole("radiogroup", { name: "Environment variable TOKEN of evil" });
    expect(ownGroup.textContent).toContain("stored under this server's own name");
    await user.click(within(ownGroup).getByRole("radio", { name: "Keep" }));
    expect(importButton("Claude Desktop").disabled).toBe(true);
    await user.click(within(awsGroup).getByRole("radio", { name: "Drop" }));
    expect(importButton("Claude Desktop").disabled).toBe(false);

    await user.click(importButton("Claude Desktop"));
    expect(props.onImport).toHaveBeenCalledExactlyOnceWith({
      source: "Claude Desktop",
      path: "/c.json",
      servers: [{ name: "evil", keep: [own], importAs: null, toKeyring: false }],
      answers: [],
    });
  });

  it("imports a server already configured only under a free name, checked as it is typed", async () => {
    const { props, user } = setup();
    const claude = screen.getByRole("group", { name: "Claude Desktop" });
    await user.click(within(claude).getByRole("checkbox", { name: "files" }));
    const rename = within(claude).getByRole("textbox", { name: "Import files as" }) as HTMLInputElement;
    expect(rename.disabled).toBe(false);
    expect(rename.getAttribute("aria-invalid")).toBe("false");

    const one = "To import, give 1 server a free name.";
    for (const [typed, problem, waiting] of [
      ["files", "A server named files is already configured.", one],
      ["files-3", "A server named files-3 is already configured.", one],
      // Both would go under one name: each is told.
      ["github", "github is imported as github too.", "To import, give 2 servers free names."],
      ["my files", "A name may hold only letters, digits, '-', '_' and '.'.", one],
      ["", "A server needs a name.", one],
    ] as const) {
      await user.clear(rename);
      if (typed !== "") await user.type(rename, typed);
      expect(within(claude).getByRole("textbox", { name: "Import files as", description: problem })).toBe(rename);
      expect(rename.getAttribute("aria-invalid")).toBe("true");
      expect(importButton("Claude Desktop").disabled).toBe(true);
      expect(within(claude).getByText(waiting)).toBeTruthy();
    }
    await user.clear(rename);
    await user.type(rename, "files-home");
    expect(rename.getAttribute("aria-invalid")).toBe("false");
    await user.click(importButton("Claude Desktop"));
    expect(props.onImport).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        servers: [
          { name: "files", keep: [], importAs: "files-home", toKeyring: false },
          { name: "github", keep: [], importAs: null, toKeyring: false },
          { name: "memory", keep: [], importAs: null, toKeyring: false },
        ],
      }),
    );
  });

  it("offers to move each server's plain-text tokens to the keyring, yes unless the person says no", async () => {
    const file: ImportCandidate = {
      source: "Cursor",
      path: "/h/.cursor/mcp.json",
      servers: [
        server("gh", "https://api.github.example/mcp", {
          plainSecrets: [
            { place: "header", key: "Authorization" },
            { place: "env", key: "GH_TOKEN" },
          ],
        }),
        server("db", "db-mcp", { plainSecrets: [{ place: "env", key: "DB_PASSWORD" }] }),
      ],
      warnings: [],
      configured: [],
    };
    const { props, user } = setup({ candidates: [file] });
    const gh = screen.getByRole("checkbox", { name: "Move its 2 tokens to the OS keyring" }) as HTMLInputElement;
    expect(gh.checked).toBe(true);
    expect(screen.getByRole("checkbox", { name: "Move its 2 tokens to the OS keyring", description: /Authorization \(header\), GH_TOKEN \(environment variable\)/ })).toBe(gh);
    const db = screen.getByRole("checkbox", { name: "Move its token to the OS keyring" });
    await user.click(db);
    expect(screen.getByText(/They will stay in plain text/)).toBeTruthy();
    await user.click(importButton("Cursor"));
    expect(props.onImport).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        servers: [
          { name: "gh", keep: [], importAs: null, toKeyring: true },
          { name: "db", keep: [], importAs: null, toKeyring: false },
        ],
      }),
    );
  });

  it("shows a file's text as text, never as markup", () => {
    const markup: Reference = { ...aws, key: "<b>X</b>", text: '<img src="x" onerror="alert(1)">' };
    const file: ImportCandidate = {
      source: "VS Code",
      path: "/m.json",
      servers: [server("<i>s</i>", "sh", { references: [markup], inputs: [{ id: "k", description: "<b>Key</b>", password: false }] })],
      warnings: [{ kind: "unusedSetting", server: "<i>s</i>", field: "note", value: '"<script>alert(1)</script>"' }],
      configured: [],
    };
    const { view } = setup({ candidates: [file] });
    expect(view.container.querySelector("img, b, i, script")).toBeNull();
    expect(screen.getByRole("radiogroup", { name: "Header <b>X</b> of <i>s</i>" }).textContent).toContain(
      '"<img src=\\"x\\" onerror=\\"alert(1)\\">"',
    );
    expect(screen.getByLabelText("<b>Key</b>")).toBeTruthy();
    expect(screen.getByText('server "<i>s</i>": the setting `note` ("<script>alert(1)</script>") is kept but not used by Switchboard')).toBeTruthy();
  });

  it("asks for each input once, a password unseen, and sends the answers with the servers that need them", async () => {
    const apiKey = { id: "api-key", description: "Perplexity API key", password: true };
    const region = { id: "region", description: "Region", password: false };
    const file: ImportCandidate = {
      source: "VS Code",
      path: "/home/ada/.config/Code/User/mcp.json",
      servers: [server("perplexity", "npx server-perplexity-ask", { inputs: [apiKey, region] }), server("remote", "https://api.example/mcp", { inputs: [apiKey] })],
      warnings: [],
      configured: [],
    };
    const { props, user } = setup({ candidates: [file] });
    const key = screen.getByLabelText("Perplexity API key") as HTMLInputElement;
    expect(key.type).toBe("password");
    expect(screen.getAllByLabelText("Perplexity API key")).toHaveLength(1);
    expect(screen.getByRole("textbox", { name: "Region", description: "region, for perplexity" })).toBeTruthy();
    expect(importButton("VS Code").disabled).toBe(true);
    expect(screen.getByText("To import, enter 2 values.")).toBeTruthy();

    await user.type(key, "pplx-secret");
    // A server no longer chosen needs no answer.
    await user.click(screen.getByRole("checkbox", { name: "perplexity" }));
    expect(screen.queryByLabelText("Region")).toBeNull();
    expect(importButton("VS Code").disabled).toBe(false);
    await user.click(screen.getByRole("checkbox", { name: "perplexity" }));
    await user.type(screen.getByRole("textbox", { name: "Region" }), "eu");

    await user.click(importButton("VS Code"));
    expect(props.onImport).toHaveBeenCalledExactlyOnceWith({
      source: "VS Code",
      path: "/home/ada/.config/Code/User/mcp.json",
      servers: [
        { name: "perplexity", keep: [], importAs: null, toKeyring: false },
        { name: "remote", keep: [], importAs: null, toKeyring: false },
      ],
      answers: [
        { id: "api-key", value: "pplx-secret" },
        { id: "region", value: "eu" },
      ],
    });
  });

  it("loads a file the person names or picks, and cancels", async () => {
    const onPickFile = vi.fn();
    const { props, user, view } = setup({ candidates: [], onPickFile });
    await user.click(screen.getByRole("button", { name: "Choose file…" }));
    expect(onPickFile).toHaveBeenCalledOnce();
    expect(screen.getByText(/No configuration of Claude Desktop, VS Code or Cursor was found/)).toBeTruthy();
    const path = screen.getByRole("textbox", { name: "Another configuration file" });
    await user.type(path, "x");
    expect(props.onCustomPath).toHaveBeenCalledWith("x");
    expect((screen.getByRole("button", { name: "Load" }) as HTMLButtonElement).disabled).toBe(true);

    view.rerender(<ImportDialogContent {...props} customPath="/tmp/mcp.json" />);
    await user.type(path, "{Enter}");
    expect(props.onLoadCustom).toHaveBeenCalledOnce();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(props.onCancel).toHaveBeenCalledOnce();
  });
});

describe("ImportDialogContent in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("offers the files' servers, names and what waits in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    const { user } = setup();
    expect(screen.getByRole("heading", { name: "导入服务器" })).toBeTruthy();
    const claude = screen.getByRole("group", { name: "Claude Desktop" });
    const files = within(claude).getByRole("checkbox", { name: "files", description: /已配置/ });
    expect(within(claude).getByRole("button", { name: "从 Claude Desktop 导入所选项" }).textContent).toBe("导入所选项（2）");
    await user.click(files);
    const rename = within(claude).getByRole("textbox", { name: "将 files 导入为" });
    await user.clear(rename);
    await user.type(rename, "files-3");
    expect(within(claude).getByRole("textbox", { name: "将 files 导入为", description: "已配置了名为 files-3 的服务器。" })).toBe(rename);
    expect(within(claude).getByText("导入前，请为 1 个服务器另取未被占用的名称。")).toBeTruthy();
    await user.clear(rename);
    await user.type(rename, "github");
    expect(within(claude).getByText("导入前，请为 2 个服务器另取未被占用的名称。")).toBeTruthy();
    expect(within(claude).getByRole("textbox", { name: "将 files 导入为", description: "github 也将导入为 github。" })).toBe(rename);
    await user.clear(rename);
    expect(within(claude).getByRole("textbox", { name: "将 files 导入为", description: "服务器需要一个名称。" })).toBe(rename);
    await user.click(within(claude).getByRole("checkbox", { name: "github" }));
    await user.click(within(claude).getByRole("checkbox", { name: "memory" }));
    await user.click(files);
    expect(within(claude).getByRole("button", { name: "从 Claude Desktop 导入所选项" }).textContent).toBe("导入所选项");
    expect(screen.getByRole("textbox", { name: "其他配置文件" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "读取" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();
  });

  it("asks in Chinese about references, tokens and values to enter", async () => {
    act(() => applyLanguage("zh-CN"));
    const file: ImportCandidate = {
      source: "VS Code",
      path: "/m.json",
      servers: [
        server("evil", "sh", {
          references: [stolen, own, aws],
          plainSecrets: [
            { place: "header", key: "Authorization" },
            { place: "env", key: "GH_TOKEN" },
          ],
          inputs: [{ id: "region", description: "Region", password: false }],
        }),
        server("db", "db-mcp", { plainSecrets: [{ place: "env", key: "DB_PASSWORD" }] }),
      ],
      warnings: [],
      configured: [],
    };
    const { user } = setup({ candidates: [file] });
    const refs = screen.getByRole("list", { name: "evil 在其条目之外指向的内容" });
    const stolenGroup = within(refs).getByRole("radiogroup", { name: "evil 的环境变量 STOLEN" });
    expect(stolenGroup.textContent).toContain("Switchboard 将拒绝以它启动服务器");
    expect(stolenGroup.textContent).toContain("（evil/env/STOLEN）");
    expect(within(refs).getByRole("radiogroup", { name: "evil 的环境变量 TOKEN" }).textContent).toContain("保存在这个服务器自己的名称下");
    const awsGroup = within(refs).getByRole("radiogroup", { name: "evil 的请求头 X-Aws" });
    expect(awsGroup.textContent).toContain("每次服务器启动时，从 Switchboard 的环境变量中填入：AWS_SECRET_ACCESS_KEY。");
    expect(within(awsGroup).getAllByRole("radio").map((r) => r.parentElement?.textContent)).toEqual(["保留", "舍弃"]);
    expect(screen.getByText("导入前，请决定保留还是舍弃 3 个指向条目之外的值，并输入 1 个值。")).toBeTruthy();

    const tokens = screen.getByRole("checkbox", {
      name: "将它的 2 个令牌移到系统密钥环",
      description: "文件中以明文写着 evil 的这些令牌：Authorization（请求头）, GH_TOKEN（环境变量）。Switchboard 的配置中将只保留对它们的引用。",
    });
    await user.click(tokens);
    expect(screen.getByText(/它们将以明文保留在 Switchboard 的配置中。/)).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "将它的令牌移到系统密钥环" })).toBeTruthy();

    expect(screen.getByRole("group", { name: "需要输入的值" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Region", description: "region，用于 evil" })).toBeTruthy();
  });

  it("says in Chinese when no file was found", () => {
    act(() => applyLanguage("zh-CN"));
    setup({ candidates: [{ ...candidates[1]!, servers: [] }], onPickFile: vi.fn() });
    expect(screen.getByText("这个文件没有配置任何服务器。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "选择文件…" })).toBeTruthy();
    cleanup();
    setup({ candidates: [] });
    expect(screen.getByText("没有找到 Claude Desktop、VS Code 或 Cursor 的配置。请在下方指定一个文件。")).toBeTruthy();
  });
});

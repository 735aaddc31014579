import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerFormView, emptyServerForm, validateServerForm, type ServerFormViewProps } from "./ServerFormView";
import { splitCommandLine } from "./serverFormModel";
import type { ServerForm_Serialize as ServerForm } from "../bindings";
import { applyLanguage } from "../i18n";

afterEach(cleanup);

function setup(overrides: Partial<ServerFormViewProps> = {}) {
  const props: ServerFormViewProps = {
    initial: emptyServerForm(),
    existingNames: ["files"],
    mode: "add",
    onSave: vi.fn(),
    onCancel: vi.fn(),
    ...overrides,
  };
  render(<ServerFormView {...props} />);
  return { props, user: userEvent.setup() };
}

const field = (name: string) => screen.getByRole("textbox", { name });
/** The problem text a control is described by (its hint included). */
const problemOf = (control: HTMLElement) =>
  (control.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id))
    .filter((el) => el?.className === "field-error")
    .map((el) => el?.textContent)
    .join(" ");

describe("ServerFormView", () => {
  it("names what is missing, beside each field, and saves nothing", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("2 things to fix before saving.");
    expect(problemOf(field("Server name"))).toBe("Enter a name.");
    expect(problemOf(field("Command"))).toBe("Enter the command that starts the server.");
    expect(field("Server name").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(field("Server name"));
  });

  it("refuses a taken name and one with a slash", async () => {
    const { user } = setup();
    await user.type(field("Server name"), "files");
    await user.type(field("Command"), "npx");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Server name"))).toBe("A server named files already exists.");
    await user.clear(field("Server name"));
    await user.type(field("Server name"), "my/server");
    expect(problemOf(field("Server name"))).toBe("Use only letters, digits, '-', '_' and '.'.");
  });

  it("saves a command with its arguments as typed and a secret variable for the keyring", async () => {
    const { props, user } = setup();
    await user.type(field("Server name"), "github.main");
    await user.type(field("Command"), " npx ");
    await user.click(screen.getByRole("button", { name: "Add argument" }));
    await user.keyboard("-y{Enter}"); // Enter opens the next row and moves there
    await user.keyboard("notes of mine.txt");
    await user.click(screen.getByRole("button", { name: "Add variable" }));
    const variable = screen.getByRole("group", { name: "Variable 1" });
    await user.type(within(variable).getByRole("textbox", { name: "Name" }), "GITHUB_TOKEN");
    await user.click(within(variable).getByRole("switch", { name: "Store in keyring" }));
    const value = within(variable).getByLabelText("Value");
    expect(value.getAttribute("type")).toBe("password");
    await user.type(value, "ghp_s3cret");
    await user.type(field("Request timeout (seconds)"), "30");
    await user.click(screen.getByRole("checkbox", { name: "Trust this server's tool annotations" }));
    await user.click(screen.getByRole("button", { name: "Add server" }));

    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "github.main",
      command: "npx",
      args: ["-y", "notes of mine.txt"],
      env: [{ key: "GITHUB_TOKEN", value: "ghp_s3cret", secret: true, stored: false }],
      requestTimeoutSecs: 30,
      trusted: true,
    } satisfies ServerForm);
  });

  it("runs a new local server in the sandbox, with the network only when asked", async () => {
    const { props, user } = setup();
    await user.type(field("Server name"), "notes");
    await user.type(field("Command"), "notes-server");
    expect(screen.getByRole("checkbox", { name: "Run in a sandbox" })).toHaveProperty("checked", true);
    expect(screen.getByRole("checkbox", { name: "Allow it the network" })).toHaveProperty("checked", false);
    await user.click(screen.getByRole("checkbox", { name: "Allow it the network" }));
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "notes",
      command: "notes-server",
      sandbox: true,
      sandboxNetwork: true,
    } satisfies ServerForm);
  });

  it("offers to split a command typed with its arguments into the command and its arguments", async () => {
    const { props, user } = setup();
    await user.type(field("Server name"), "fs");
    await user.type(field("Command"), "npx");
    expect(screen.queryByRole("button", { name: /Split/ })).toBeNull();
    await user.type(field("Command"), ` -y @modelcontextprotocol/server-filesystem "/home/ada/my notes"`);
    const offer = screen.getByRole("button", { name: "Split into npx and 3 arguments" });
    await user.click(offer);
    expect(field("Command")).toHaveProperty("value", "npx");
    expect(screen.getAllByRole("textbox", { name: /^Argument \d/ }).map((a) => (a as HTMLInputElement).value)).toEqual([
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "/home/ada/my notes",
    ]);
    expect(screen.queryByRole("button", { name: /Split/ })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/ada/my notes"] }),
    );
  });

  it("splits a command line as a shell would, keeping quoted spaces and Windows paths", () => {
    expect(splitCommandLine("npx  -y  pkg")).toEqual(["npx", "-y", "pkg"]);
    expect(splitCommandLine(`uvx 'a b' "c d" e\\ f`)).toEqual(["uvx", "a b", "c d", "e f"]);
    expect(splitCommandLine("C:\\Tools\\server.exe --port 3")).toEqual(["C:\\Tools\\server.exe", "--port", "3"]);
    expect(splitCommandLine("  node  ")).toEqual(["node"]);
  });

  it("refuses bad and repeated variable names, empty secrets, empty arguments and a bad timeout", async () => {
    const { props, user } = setup();
    await user.type(field("Server name"), "demo");
    await user.type(field("Command"), "demo-server");
    await user.click(screen.getByRole("button", { name: "Add argument" }));
    for (const key of ["1ST", "PATH", "PATH"]) {
      await user.click(screen.getByRole("button", { name: "Add variable" }));
      await user.keyboard(key);
    }
    await user.click(within(screen.getByRole("group", { name: "Variable 2" })).getByRole("switch", { name: "Store in keyring" }));
    await user.type(field("Request timeout (seconds)"), "1.5");
    await user.click(screen.getByRole("button", { name: "Add server" }));

    expect(props.onSave).not.toHaveBeenCalled();
    expect(problemOf(field("Argument 1"))).toBe("Empty argument: fill it in or remove the row.");
    const row = (n: number) => screen.getByRole("group", { name: `Variable ${n}` });
    expect(problemOf(within(row(1)).getByRole("textbox", { name: "Name" }))).toBe(
      "Use letters, digits and '_', not starting with a digit.",
    );
    expect(problemOf(within(row(2)).getByLabelText("Value"))).toBe("Enter the secret, or turn off “Store in keyring”.");
    expect(problemOf(within(row(3)).getByRole("textbox", { name: "Name" }))).toBe("PATH appears twice.");
    expect(problemOf(field("Request timeout (seconds)"))).toBe("Enter whole seconds from 1 to 86400, or leave it empty.");

    // Removing the rows in the way lets it save.
    await user.click(screen.getByRole("button", { name: "Remove argument 1" }));
    for (let i = 0; i < 3; i++) await user.click(screen.getByRole("button", { name: "Remove variable 1" }));
    await user.clear(field("Request timeout (seconds)"));
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({ ...emptyServerForm(), name: "demo", command: "demo-server" });
  });

  it("saves a remote server with a valid URL, its transport mode and a secret header", async () => {
    const { props, user } = setup();
    await user.type(field("Server name"), "remote");
    await user.type(field("Command"), "left-over"); // typed before switching: not saved
    await user.click(screen.getByRole("radio", { name: "Remote server (HTTP)" }));
    expect(screen.queryByRole("textbox", { name: "Command" })).toBeNull();
    const url = screen.getByRole("textbox", { name: "URL" });
    await user.type(url, "ftp://mcp.example/mcp");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(url)).toBe("Enter an http:// or https:// URL.");
    expect(props.onSave).not.toHaveBeenCalled();

    await user.clear(url);
    await user.type(url, "https://mcp.example/mcp");
    await user.selectOptions(screen.getByRole("combobox", { name: "HTTP transport" }), "Streamable HTTP only");
    await user.selectOptions(screen.getByRole("combobox", { name: "Protocol era" }), "2026-07-28 only (stateless)");
    await user.click(screen.getByRole("button", { name: "Add header" }));
    const header = screen.getByRole("group", { name: "Header 1" });
    await user.type(within(header).getByRole("textbox", { name: "Name" }), "Authorization");
    await user.type(within(header).getByLabelText("Value"), "Bearer abc");
    await user.click(within(header).getByRole("switch", { name: "Store in keyring" }));
    await user.click(screen.getByRole("button", { name: "Add server" }));

    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "remote",
      transport: "http",
      url: "https://mcp.example/mcp",
      httpMode: "streamable_http",
      headers: [{ key: "Authorization", value: "Bearer abc", secret: true, stored: false }],
      protocolEra: "stateless",
    } satisfies ServerForm);
  });

  it("saves a pre-registered client, its secret only with its id and its authorization server", async () => {
    const { props, user } = setup();
    await user.type(field("Server name"), "tracker");
    await user.click(screen.getByRole("radio", { name: "Remote server (HTTP)" }));
    await user.type(screen.getByRole("textbox", { name: "URL" }), "https://mcp.tracker.example/mcp");
    const secret = screen.getByLabelText("Client secret");
    expect(secret.getAttribute("type")).toBe("password");
    await user.type(secret, "s3cr3t");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Client ID"))).toBe("Enter the client ID the secret belongs to.");
    expect(props.onSave).not.toHaveBeenCalled();

    await user.type(field("Client ID"), "abc123");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Authorization server"))).toBe(
      "Enter the authorization server the client was made at: its secret is sent there alone.",
    );
    expect(props.onSave).not.toHaveBeenCalled();

    await user.type(field("Authorization server"), "https://auth.tracker.example");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "tracker",
      transport: "http",
      url: "https://mcp.tracker.example/mcp",
      clientId: "abc123",
      clientSecret: "s3cr3t",
      clientIssuer: "https://auth.tracker.example",
    } satisfies ServerForm);
  });

  /** A remote server named `name` at `url`, its form open on the HTTP fields. */
  async function remote(user: ReturnType<typeof userEvent.setup>, name = "tracker", url = "https://mcp.tracker.example/mcp") {
    await user.type(field("Server name"), name);
    await user.click(screen.getByRole("radio", { name: "Remote server (HTTP)" }));
    await user.type(field("URL"), url);
  }
  const grant = () => screen.getByRole("combobox", { name: "How it signs in" });

  it("shows the fields of the chosen way of signing in alone", async () => {
    const { user } = setup();
    await remote(user);
    expect(screen.getByRole("group", { name: "Authorization" })).toBeTruthy();
    expect((grant() as HTMLSelectElement).value).toBe("signIn");
    expect(screen.queryByRole("textbox", { name: "Private key (PEM)" })).toBeNull();
    expect(screen.getByLabelText("Client secret")).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "Bind tokens to this app's key (DPoP) where the server offers it" })).toHaveProperty("checked", true);

    await user.selectOptions(grant(), "Client credentials (no person)");
    expect(field("Private key (PEM)").tagName).toBe("TEXTAREA");
    expect(field("Signing algorithm").getAttribute("placeholder")).toBe("ES256");
    expect(document.getElementById(field("Private key (PEM)").getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Kept in the keyring, never in the configuration file.",
    );

    await user.selectOptions(grant(), "Workload identity (token file)");
    expect(screen.queryByRole("textbox", { name: "Private key (PEM)" })).toBeNull();
    expect(screen.queryByLabelText("Client secret")).toBeNull();
    expect(field("Token file")).toBeTruthy();

    await user.selectOptions(grant(), "Enterprise identity provider");
    expect(screen.queryByRole("textbox", { name: "Token file" })).toBeNull();
    for (const name of ["Identity provider token endpoint", "Client ID at the identity provider", "ID token file"]) expect(field(name)).toBeTruthy();
    expect(screen.getByLabelText("Client secret")).toBeTruthy();

    await user.selectOptions(grant(), "You sign in in the browser");
    expect(screen.queryByRole("textbox", { name: "Private key (PEM)" })).toBeNull();
    expect(screen.queryByRole("textbox", { name: "ID token file" })).toBeNull();
  });

  it("refuses client credentials without their authorization server or without a secret or key", async () => {
    const { props, user } = setup();
    await remote(user);
    await user.selectOptions(grant(), "Client credentials (no person)");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(problemOf(field("Client ID"))).toBe("Enter the client ID the authorization server gave this app.");
    expect(problemOf(screen.getByLabelText("Client secret"))).toBe("Enter the client secret or a private key.");
    expect(problemOf(field("Authorization server"))).toBe(
      "Enter the authorization server its credentials are for: they are sent there alone.",
    );

    await user.type(field("Client ID"), "robot");
    await user.type(screen.getByLabelText("Client secret"), "s3cr3t");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(screen.getByLabelText("Client secret"))).toBe("");
    expect(problemOf(field("Authorization server"))).toBe(
      "Enter the authorization server its credentials are for: they are sent there alone.",
    );
    expect(props.onSave).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText("Client secret"));
    await user.type(field("Authorization server"), "https://auth.tracker.example");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(screen.getByLabelText("Client secret"))).toBe("Enter the client secret or a private key.");
    expect(problemOf(field("Authorization server"))).toBe("");
    expect(props.onSave).not.toHaveBeenCalled();

    await user.type(field("Private key (PEM)"), "not a key");
    await user.type(field("Signing algorithm"), "HS256");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Private key (PEM)"))).toBe("Paste the whole key in PEM, from its -----BEGIN line to its -----END line.");
    expect(problemOf(field("Signing algorithm"))).toBe(
      "Use one of ES256, ES384, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, or leave it empty for ES256.",
    );
    expect(props.onSave).not.toHaveBeenCalled();
  });

  it("saves client credentials with their private key, and without DPoP when unticked", async () => {
    const { props, user } = setup();
    const pem = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----";
    await remote(user);
    await user.selectOptions(grant(), "Client credentials (no person)");
    await user.type(field("Client ID"), "robot");
    await user.type(field("Authorization server"), "https://auth.tracker.example");
    await user.click(field("Private key (PEM)"));
    await user.paste(pem);
    await user.type(field("Signing algorithm"), "ES384");
    await user.click(screen.getByRole("checkbox", { name: "Bind tokens to this app's key (DPoP) where the server offers it" }));
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "tracker",
      transport: "http",
      url: "https://mcp.tracker.example/mcp",
      oauthGrant: "clientCredentials",
      clientId: "robot",
      clientIssuer: "https://auth.tracker.example",
      privateKey: pem,
      signingAlgorithm: "ES384",
      dpop: false,
    } satisfies ServerForm);
  });

  it("needs a workload's token file as a full path, and saves none of the other grants' fields", async () => {
    const { props, user } = setup();
    await remote(user);
    await user.type(screen.getByLabelText("Client secret"), "left-over"); // a workload sends no secret
    await user.selectOptions(grant(), "Client credentials (no person)");
    await user.type(field("Private key (PEM)"), "left-over");
    await user.selectOptions(grant(), "Workload identity (token file)");
    await user.type(field("Authorization server"), "https://auth.tracker.example");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Token file"))).toBe("Enter the full path of the token file.");
    expect(problemOf(field("Client ID"))).toBe("");
    expect(props.onSave).not.toHaveBeenCalled();

    await user.type(field("Token file"), "token.jwt");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Token file"))).toBe("Enter the full path of the token file.");
    await user.clear(field("Token file"));
    await user.type(field("Token file"), "~/token.jwt");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(problemOf(field("Token file"))).toBe("Enter the full path of the token file.");
    expect(props.onSave).not.toHaveBeenCalled();

    await user.clear(field("Token file"));
    await user.type(field("Token file"), " /var/run/secrets/tokens/mcp-token ");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "tracker",
      transport: "http",
      url: "https://mcp.tracker.example/mcp",
      oauthGrant: "workload",
      clientIssuer: "https://auth.tracker.example",
      tokenFile: "/var/run/secrets/tokens/mcp-token",
    } satisfies ServerForm);
  });

  it("needs an enterprise grant's identity provider, its client there and the ID token file", async () => {
    const { props, user } = setup();
    await remote(user);
    await user.selectOptions(grant(), "Enterprise identity provider");
    await user.type(field("Identity provider token endpoint"), "idp.example.com/token");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(problemOf(field("Identity provider token endpoint"))).toBe("Enter an http:// or https:// URL.");
    expect(problemOf(field("Client ID at the identity provider"))).toBe("Enter this app's client ID at the identity provider.");
    expect(problemOf(field("ID token file"))).toBe("Enter the full path of the ID token file.");
    expect(problemOf(field("Client ID"))).toBe("Enter the client ID the authorization server gave this app.");

    await user.clear(field("Identity provider token endpoint"));
    await user.type(field("Identity provider token endpoint"), "https://idp.example.com/token");
    await user.type(field("Client ID at the identity provider"), "switchboard");
    await user.type(field("ID token file"), "/run/user/1000/id-token");
    await user.type(field("Client ID"), "tracker-client");
    await user.type(field("Authorization server"), "https://auth.tracker.example");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith({
      ...emptyServerForm(),
      name: "tracker",
      transport: "http",
      url: "https://mcp.tracker.example/mcp",
      oauthGrant: "enterprise",
      clientId: "tracker-client",
      clientIssuer: "https://auth.tracker.example",
      idpTokenEndpoint: "https://idp.example.com/token",
      idpClientId: "switchboard",
      idTokenFile: "/run/user/1000/id-token",
    } satisfies ServerForm);
  });

  it("keeps a stored private key when left empty", async () => {
    const initial: ServerForm = {
      ...emptyServerForm(),
      name: "robot",
      transport: "http",
      url: "https://mcp.example/mcp",
      oauthGrant: "clientCredentials",
      clientId: "robot",
      clientIssuer: "https://auth.example",
      privateKeyStored: true,
    };
    const { props, user } = setup({ mode: "edit", initial, existingNames: ["robot"] });
    expect(document.getElementById(field("Private key (PEM)").getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Stored in the keyring; leave empty to keep.",
    );
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith(initial);
  });

  it("keeps a stored secret when its value is left empty, and the server's own name when editing", async () => {
    const initial: ServerForm = {
      ...emptyServerForm(),
      name: "files",
      command: "files-server",
      env: [{ key: "TOKEN", value: "", secret: true, stored: true }],
    };
    const { props, user } = setup({ mode: "edit", initial, existingNames: ["files", "other"] });
    expect(screen.getByRole("heading", { name: "Edit files" })).toBeTruthy();
    const value = within(screen.getByRole("group", { name: "Variable 1" })).getByLabelText("Value");
    expect(screen.getByText("Stored in the keyring; leave empty to keep.").id).toBe(value.getAttribute("aria-describedby"));
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(props.onSave).toHaveBeenCalledExactlyOnceWith(initial);

    await user.clear(field("Server name"));
    await user.type(field("Server name"), "other");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(problemOf(field("Server name"))).toBe("A server named other already exists.");
  });

  it("shows the host's refusal, and no second save while one is under way", async () => {
    const { props, user } = setup({ busy: true, error: "the keyring is locked" });
    expect(screen.getByRole("alert").textContent).toBe("the keyring is locked");
    const save = screen.getByRole("button", { name: "Saving…" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(props.onCancel).toHaveBeenCalledOnce();
  });
});

describe("validateServerForm", () => {
  const stdio = { ...emptyServerForm(), name: "a", command: "x" };
  it("checks only the chosen transport's fields", () => {
    expect(validateServerForm(stdio, [], "add")).toEqual({});
    expect(validateServerForm({ ...stdio, transport: "http" }, [], "add")).toEqual({ url: "Enter the server's URL." });
  });
  it("treats header names case-insensitively and needs a host in the URL", () => {
    const form: ServerForm = {
      ...stdio,
      transport: "http",
      url: "https://",
      headers: [
        { key: "X-Key", value: "1", secret: false, stored: false },
        { key: "x-key", value: "2", secret: false, stored: false },
      ],
    };
    expect(validateServerForm(form, [], "add")).toEqual({
      url: "Enter an http:// or https:// URL.",
      "headers.1.key": "x-key appears twice.",
    });
  });
});

describe("ServerFormView in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("names its fields, buttons and problems in Chinese", async () => {
    act(() => applyLanguage("zh-CN"));
    const { props, user } = setup();
    expect(screen.getByRole("heading", { name: "添加服务器" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "传输方式" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "本地命令（stdio）" })).toHaveProperty("checked", true);
    expect(screen.getByRole("checkbox", { name: "启用（立即启动，并在每次 Switchboard 启动时启动）" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "在沙箱中运行" })).toHaveProperty("checked", true);
    expect(screen.getByRole("group", { name: "参数" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "环境变量" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "添加服务器" }));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("保存前有 2 处需要修改。");
    expect(problemOf(field("服务器名称"))).toBe("请输入名称。");
    expect(problemOf(field("命令"))).toBe("请输入启动服务器的命令。");

    await user.type(field("命令"), "npx -y pkg");
    await user.click(screen.getByRole("button", { name: "拆分为 npx 和 2 个参数" }));
    expect(screen.getAllByRole("textbox", { name: /^参数 \d/ }).map((a) => (a as HTMLInputElement).value)).toEqual(["-y", "pkg"]);
    expect(screen.getByRole("button", { name: "移除参数 2" }).textContent).toBe("移除");
    await user.click(screen.getByRole("button", { name: "添加变量" }));
    const variable = screen.getByRole("group", { name: "变量 1" });
    await user.type(within(variable).getByRole("textbox", { name: "名称" }), "1ST");
    await user.click(within(variable).getByRole("switch", { name: "保存到密钥环" }));
    await user.type(field("请求超时（秒）"), "0");
    expect(screen.getByRole("alert").textContent).toBe("保存前有 4 处需要修改。");
    expect(problemOf(within(variable).getByRole("textbox", { name: "名称" }))).toBe("只能使用字母、数字和“_”，且不能以数字开头。");
    expect(problemOf(within(variable).getByLabelText("值"))).toBe("请输入机密值，或关闭“保存到密钥环”。");
    expect(problemOf(field("请求超时（秒）"))).toBe("请输入 1 到 86400 之间的整数秒数，或留空。");
  });

  it("says the sign-in choices and their hints in Chinese, and changes language while open", async () => {
    const { user } = setup({ mode: "edit", initial: { ...emptyServerForm(), name: "tracker", transport: "http", url: "https://mcp.example/mcp" } });
    expect(screen.getByRole("heading", { name: "Edit tracker" })).toBeTruthy();
    act(() => applyLanguage("zh-CN"));
    expect(screen.getByRole("heading", { name: "编辑 tracker" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "授权" })).toBeTruthy();
    const signIn = screen.getByRole("combobox", { name: "登录方式" });
    expect(within(signIn).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "你在浏览器中登录",
      "客户端凭据（无需人工）",
      "工作负载身份（令牌文件）",
      "企业身份提供方",
    ]);
    expect(within(screen.getByRole("combobox", { name: "HTTP 传输方式" })).getAllByRole("option")[0]?.textContent).toBe(
      "自动：优先 Streamable HTTP，否则 HTTP+SSE",
    );
    expect(within(screen.getByRole("combobox", { name: "协议版本" })).getAllByRole("option")[1]?.textContent).toBe("仅 2026-07-28（无状态）");
    await user.selectOptions(signIn, "企业身份提供方");
    const secret = screen.getByLabelText("客户端密钥");
    expect(document.getElementById(secret.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "可选。保存在密钥环中，绝不写入配置文件。",
    );
    await user.type(field("身份提供方令牌端点"), "idp.example.com");
    await user.click(screen.getByRole("button", { name: "保存更改" }));
    expect(problemOf(field("身份提供方令牌端点"))).toBe("请输入以 http:// 或 https:// 开头的 URL。");
    expect(problemOf(field("ID 令牌文件"))).toBe("请输入 ID 令牌文件的完整路径。");
    expect(problemOf(field("授权服务器"))).toBe("请输入这些凭据所属的授权服务器：凭据只会发送到那里。");
  });

  it("checks the form in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    const form: ServerForm = {
      ...emptyServerForm(),
      name: "files",
      transport: "http",
      url: "https://mcp.example/mcp",
      oauthGrant: "clientCredentials",
      clientId: "robot",
      clientIssuer: "https://auth.example",
      clientSecret: "s",
      signingAlgorithm: "HS256",
      headers: [{ key: "X Key", value: "a\nb", secret: false, stored: false }],
    };
    expect(validateServerForm(form, ["files"], "add")).toEqual({
      name: "已有名为 files 的服务器。",
      signingAlgorithm: "请使用 ES256, ES384, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA 之一，或留空以使用 ES256。",
      "headers.0.key": "只能使用字母、数字和“-”（不能有空格或“:”）。",
      "headers.0.value": "请求头的值不能跨行。",
    });
  });
});

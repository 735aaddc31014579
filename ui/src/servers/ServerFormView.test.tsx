import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerFormView, emptyServerForm, validateServerForm, type ServerFormViewProps } from "./ServerFormView";
import { splitCommandLine } from "./serverFormModel";
import type { ServerForm_Serialize as ServerForm } from "../bindings";

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

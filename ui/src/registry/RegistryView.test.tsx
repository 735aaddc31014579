import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type Page_Serialize, type RegistryServer_Serialize, type ServerForm_Serialize, type Unreadable_Serialize as Unreadable } from "../bindings";
import samples from "../testing/reasons.json";
import { InstallLinkContext } from "../host/installLinks";
import { applyLanguage } from "../i18n";
import { RegistryBrowser } from "./RegistryBrowser";
import { RegistryView } from "./RegistryView";

vi.mock("../bindings", async () =>
  (await import("../testing/bindings")).withCommands({
    registryUrl: vi.fn(() => Promise.resolve("https://registry.example/")),
    registryServers: vi.fn(),
    installProposal: vi.fn(),
    composeInstall: vi.fn(),
    saveServer: vi.fn(() => Promise.resolve(null)),
    installLinkServer: vi.fn(),
  }),
);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  // The tests after each start in English.
  act(() => applyLanguage("en"));
});

const weather: RegistryServer_Serialize = {
  name: "io.github.acme-labs/weather",
  title: "Weather",
  description: "Forecasts and current conditions.",
  version: "1.4.2",
  websiteUrl: "https://weather.example",
  packages: [
    {
      registryType: "npm",
      identifier: "@acme-labs/weather-mcp",
      version: "1.4.2",
      transport: { type: "stdio" },
      runtimeArguments: [],
      packageArguments: [{ type: "positional", valueHint: undefined, isRequired: false, isSecret: false, choices: [] }],
      environmentVariables: [{ name: "WEATHER_API_KEY", isRequired: true, isSecret: true, choices: [] }],
    },
  ],
  remotes: [{ type: "streamable-http", url: "https://weather.example/mcp", headers: [], variables: {} }],
} as unknown as RegistryServer_Serialize;

/** Two entries that could not be read, as the host tells them (`src-tauri/told.rs`). */
const unreadable = samples.registryUnreadable.map(({ entry }) => entry as Unreadable);
const page: Page_Serialize = { servers: [weather], nextCursor: "two", unreadable };

const composed = {
  name: "weather",
  transport: "stdio",
  command: "npx",
  args: ["-y", "@acme-labs/weather-mcp@1.4.2"],
  env: [{ key: "WEATHER_API_KEY", value: "", secret: true }],
  headers: [],
} as unknown as ServerForm_Serialize;

function mockRegistry() {
  vi.mocked(commands.registryServers).mockResolvedValue(page);
  vi.mocked(commands.installProposal).mockResolvedValue({
    server: weather,
    way: { package: 0 },
    name: "weather",
    prompts: [{ id: "env:WEATHER_API_KEY", sets: { kind: "environment", name: "WEATHER_API_KEY" }, input: { isRequired: true, isSecret: true, choices: [] } }],
  } as never);
  vi.mocked(commands.composeInstall).mockResolvedValue(composed);
}

describe("RegistryBrowser", () => {
  it("lists a page, shows a server's entry and adds it after the review", async () => {
    mockRegistry();
    const user = userEvent.setup();
    render(<RegistryBrowser />);
    expect(screen.getByText("Search by name, or search with nothing typed to list every server.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Search" }));
    const list = await screen.findByRole("list", { name: "Registry servers" });
    expect(screen.getByRole("status").textContent).toBe(
      "The registry sent 2 entries that could not be read, left out: entry 3: server.version: invalid type: integer `2`, expected a string; " +
        '"io.github.ada/weather": server.packages[0].transport: missing field `type`',
    );
    expect(screen.getByText("Page 1")).toBeTruthy();
    expect(screen.getByText(/^From/).textContent).toBe("From https://registry.example/");
    await user.click(within(list).getByRole("button", { name: weather.name }));
    const entry = within(screen.getByRole("article", { name: weather.name }));
    expect(entry.getByText("version 1.4.2")).toBeTruthy();
    expect(entry.getByRole("region", { name: "npm package @acme-labs/weather-mcp" })).toBeTruthy();
    expect(entry.getByText("Reached over Streamable HTTP.")).toBeTruthy();
    expect(entry.getByText("value")).toBeTruthy();
    await user.click(within(entry.getByRole("region", { name: "remote https://weather.example/mcp" })).getByRole("button", { name: "Add…" }));
    const dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByText("Add Weather from the registry")).toBeTruthy();
    expect(dialog.getByLabelText(/^environment variable WEATHER_API_KEY/)).toBeTruthy();
    expect(await dialog.findByText("•••••• (kept in the OS keyring)")).toBeTruthy();
    await user.click(dialog.getByRole("button", { name: "Add server" }));
    expect(commands.saveServer).toHaveBeenCalledWith(null, composed);
    expect((await screen.findByText(/was added/)).textContent).toBe("weather was added, untrusted: it is on the Servers page.");
  });

  it("speaks Chinese: the search, the page, the entry and the review", async () => {
    act(() => applyLanguage("zh-CN"));
    mockRegistry();
    vi.mocked(commands.registryServers).mockResolvedValue({ ...page, unreadable: unreadable.slice(0, 1) });
    const user = userEvent.setup();
    render(<RegistryBrowser />);
    expect(screen.getByText("选择一个服务器，查看它运行什么、需要什么。")).toBeTruthy();
    expect(screen.getByRole("searchbox", { name: "搜索目录" }).getAttribute("placeholder")).toBe("按名称搜索");
    await user.click(screen.getByRole("button", { name: "搜索" }));
    const list = await screen.findByRole("list", { name: "目录中的服务器" });
    expect(screen.getByRole("status").textContent).toBe("目录发来的 1 个条目无法读取，已略去：第 3 个条目：server.version：invalid type: integer `2`, expected a string");
    expect(screen.getByText("第 1 页")).toBeTruthy();
    expect(screen.getByRole("button", { name: "下一页" })).toBeTruthy();
    await user.click(within(list).getByRole("button", { name: weather.name }));
    const entry = within(screen.getByRole("article", { name: weather.name }));
    expect(entry.getByText("版本 1.4.2")).toBeTruthy();
    expect(entry.getByText("网站")).toBeTruthy();
    expect(entry.getByRole("region", { name: "npm 软件包 @acme-labs/weather-mcp" })).toBeTruthy();
    expect(entry.getByText("环境变量")).toBeTruthy();
    expect(entry.getByText("必填")).toBeTruthy();
    // The registry's own words stay as it sent them.
    expect(entry.getByText("Forecasts and current conditions.")).toBeTruthy();
    await user.click(entry.getAllByRole("button", { name: "添加…" })[0]!);
    const dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByText("从目录添加 Weather")).toBeTruthy();
    expect(dialog.getByLabelText(/^环境变量 WEATHER_API_KEY/)).toBeTruthy();
    expect(dialog.getByRole("region", { name: "将要保存的内容" })).toBeTruthy();
    expect(await dialog.findByText("••••••（保存在系统密钥环中）")).toBeTruthy();
    expect(dialog.getByText("命令")).toBeTruthy();
    expect(dialog.getByRole("button", { name: "添加服务器" })).toBeTruthy();
    await user.click(dialog.getByRole("button", { name: "取消" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("RegistryView", () => {
  it("says in Chinese why a link could not be opened, the host's reason as it gave it", async () => {
    act(() => applyLanguage("zh-CN"));
    const link = "switchboard://install?name=a.b/c&registry=https://evil.example";
    vi.mocked(commands.installLinkServer).mockRejectedValue({ code: "invalid", message: "it is not followed" });
    render(
      <InstallLinkContext.Provider value={{ link, shown: () => {} }}>
        <RegistryView />
      </InstallLinkContext.Provider>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(`无法打开链接 ${link}：it is not followed`);
    expect(within(alert).getByText(link).tagName).toBe("CODE");
    expect(within(alert).getByRole("button", { name: "关闭" })).toBeTruthy();
  });
});

import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandError, InstallLinkError, RegistryError } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/told.json";
import { installLinkErrorText, registryErrorText } from "./errors";

/** One of each way the registry or a link fails, as the host tells them (`src-tauri/told.rs`). */
const told = (samples as CommandError[]).map((e) => e.told);
const registry = told.flatMap((e) => (e?.kind === "registry" ? [e.registry as RegistryError] : []));
const links = told.flatMap((e) => (e?.kind === "installLink" ? [e.link] : []));

const REGISTRY: { [Kind in RegistryError["kind"]]: true } = {
  badUrl: true,
  unreachable: true,
  timedOut: true,
  redirected: true,
  status: true,
  notFound: true,
  notTheApi: true,
  tooLarge: true,
};
const LINKS: { [Kind in InstallLinkError["kind"]]: true } = {
  notOurs: true,
  notInstall: true,
  noName: true,
  badName: true,
  badVersion: true,
  twice: true,
  unknown: true,
};

afterEach(() => act(() => applyLanguage("en")));

describe("why the registry or a link failed", () => {
  it("has a sample of every kind", () => {
    expect(new Set(registry.map((e) => e.kind))).toEqual(new Set(Object.keys(REGISTRY)));
    expect(new Set(links.map((e) => e.kind))).toEqual(new Set(Object.keys(LINKS)));
  });

  it("reads in Chinese, addresses, statuses and the system's words as they came", () => {
    act(() => applyLanguage("zh-CN"));
    expect(registry.map(registryErrorText)).toEqual([
      '目录地址 "ftp://registry.example" 不是 http:// 或 https:// 地址',
      "无法连接位于 https://registry.modelcontextprotocol.io 的目录：dns error: failed to lookup address information",
      "位于 https://registry.modelcontextprotocol.io 的目录在 20 秒内没有回应",
      "位于 https://registry.modelcontextprotocol.io 的目录把你转到了另一个网站（https://elsewhere.example/），未跟随",
      "位于 https://registry.modelcontextprotocol.io 的目录回应了 503 Service Unavailable：maintenance",
      "位于 https://registry.modelcontextprotocol.io 的目录回应了 404 Not Found",
      '目录中没有版本为 9.9.9 的服务器 "io.github.ada/weather"',
      "https://registry.modelcontextprotocol.io 的回应不是目录的 API：missing field `servers`",
      "https://registry.modelcontextprotocol.io 的回应超过 8 MiB",
    ]);
    expect(links.map(installLinkErrorText)).toEqual([
      "这不是 Switchboard 链接",
      "Switchboard 链接只用于安装：switchboard://install?name=...",
      "链接没有指明服务器（name=...）",
      '"weather" 不是目录中服务器的名称（形如 io.github.someone/server）',
      '"latest!" 不是版本号',
      '链接中的 "name" 出现了不止一次',
      '链接中有 "run"，安装链接没有这一项：未跟随',
    ]);
  });
});

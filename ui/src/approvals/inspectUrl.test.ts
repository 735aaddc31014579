import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import { inspectUrl, listed } from "./inspectUrl";
import { decodeLabel } from "./punycode";

describe("inspectUrl", () => {
  it("finds nothing odd in a plain https address", () => {
    expect(inspectUrl("https://mcp.example.com/ui/set_api_key?x=1")).toEqual({
      href: "https://mcp.example.com/ui/set_api_key?x=1",
      scheme: "https",
      host: "mcp.example.com",
      unicodeHost: "mcp.example.com",
      warnings: [],
      openable: true,
    });
  });

  it("warns that http is not encrypted, but may still be opened", () => {
    const result = inspectUrl("http://example.com");
    expect(result.openable).toBe(true);
    expect(result.warnings).toEqual([
      "Not encrypted (http): anyone on the network could read or change what you see and send.",
    ]);
  });

  it("decodes an internationalized host and says it may imitate another", () => {
    const result = inspectUrl("https://xn--pple-43d.com");
    expect(result.host).toBe("xn--pple-43d.com");
    expect(result.unicodeHost).toBe("\u0430pple.com");
    expect(result.warnings).toEqual([
      "The host is an internationalized name that reads as “\u0430pple.com”: its letters may imitate another name.",
      "The name “\u0430pple” mixes Cyrillic and Latin letters, which can look identical to other letters.",
    ]);
    expect(result.openable).toBe(true);
  });

  it("treats a host written with a Cyrillic letter the same way", () => {
    const result = inspectUrl("https://\u0430pple.com/login");
    expect(result.host).toBe("xn--pple-43d.com");
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[1]).toMatch(/mixes Cyrillic and Latin letters/);
  });

  it("does not call a name in one script mixed", () => {
    const result = inspectUrl("https://пример.рф/");
    expect(result.unicodeHost).toBe("пример.рф");
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/internationalized name/);
  });

  it("names the real host when the address holds credentials, and refuses it", () => {
    const result = inspectUrl("https://user:pw@example.com");
    expect(result.host).toBe("example.com");
    expect(result.warnings).toEqual([
      "The address holds a user name and a password (“user”) before the host: the page is on example.com, whatever that name suggests. Addresses like this are refused.",
    ]);
    expect(result.openable).toBe(false);
    const disguised = inspectUrl("https://paypal.com@evil.example/");
    expect(disguised.warnings[0]).toBe(
      "The address holds a user name (“paypal.com”) before the host: the page is on evil.example, whatever that name suggests. Addresses like this are refused.",
    );
    expect(disguised.openable).toBe(false);
  });

  it("shows a value the host masked as the host wrote it", () => {
    const result = inspectUrl("https://h.example/cb?token=…&page=2");
    expect(result.href).toBe("https://h.example/cb?token=…&page=2");
    expect(result.warnings).toEqual([]);
    expect(result.openable).toBe(true);
  });

  it("warns of an IP address host on the local network", () => {
    expect(inspectUrl("https://192.168.0.1/").warnings).toEqual([
      "The host is a bare IP address (192.168.0.1), not a name you could recognize.",
      "The host is this computer or your local network.",
    ]);
    expect(inspectUrl("https://[::1]:8080/").warnings).toHaveLength(2);
    expect(inspectUrl("https://8.8.8.8/").warnings).toHaveLength(1);
  });

  it("refuses javascript:, file: and data: addresses", () => {
    for (const [url, scheme] of [
      ["javascript:alert(1)", "javascript"],
      ["file:///etc/passwd", "file"],
      ["data:text/html,<b>hi</b>", "data"],
    ] as const) {
      const result = inspectUrl(url);
      expect(result.scheme).toBe(scheme);
      expect(result.openable).toBe(false);
      expect(result.warnings).toEqual([
        `Addresses of the “${scheme}:” kind are refused: only web addresses (https) are opened.`,
      ]);
    }
  });

  it("refuses what is not an address", () => {
    const result = inspectUrl("not a url");
    expect(result.openable).toBe(false);
    expect(result.warnings).toEqual(["This is not a valid web address: it cannot be opened."]);
  });

  it("warns when the host is not the one the message names", () => {
    const url = "https://login.examp1e.net/auth";
    expect(inspectUrl(url, "Sign in to example.com to continue").warnings).toEqual([
      "The message mentions example.com, but the address goes to login.examp1e.net.",
    ]);
    expect(inspectUrl("https://auth.example.com/x", "Sign in to example.com").warnings).toEqual([]);
    expect(inspectUrl(url, "Please sign in").warnings).toEqual([]);
  });
});

describe("inspectUrl in Chinese", () => {
  afterEach(() => applyLanguage("en"));

  it("says each warning in Chinese, the names and addresses as they are", () => {
    applyLanguage("zh-CN");
    expect(inspectUrl("http://xn--pple-43d.com/login", "Sign in at apple.com").warnings).toEqual([
      "未加密（http）：网络上的任何人都可能读取或篡改你看到和发送的内容。",
      "主机是一个国际化域名，读作“\u0430pple.com”：其中的字母可能在模仿另一个名称。",
      "名称“\u0430pple”混用了西里尔字母和拉丁字母，这些字母可能与其他字母看起来一模一样。",
      "消息中提到的是 apple.com，但该地址指向 xn--pple-43d.com。",
    ]);
    expect(inspectUrl("https://user:pw@example.com").warnings).toEqual([
      "地址在主机名前含有用户名和密码（“user”）：无论这个名字暗示什么，页面实际位于 example.com。此类地址会被拒绝。",
    ]);
    expect(inspectUrl("https://192.168.0.1/").warnings).toEqual([
      "主机是一个纯 IP 地址（192.168.0.1），而不是你能认出的名称。",
      "主机是这台计算机或你的本地网络。",
    ]);
    expect(inspectUrl("javascript:alert(1)").warnings).toEqual(["“javascript:”类地址会被拒绝：只会打开网址（https）。"]);
    expect(inspectUrl("not a url").warnings).toEqual(["这不是有效的网址：无法打开。"]);
  });

  it("lists hosts and scripts as Chinese lists them", () => {
    const url = "https://a\u0430\u03b1.example/";
    expect(inspectUrl(url).warnings[1]).toBe(
      "The name “a\u0430\u03b1” mixes Latin and Cyrillic and Greek letters, which can look identical to other letters.",
    );
    applyLanguage("zh-CN");
    expect(inspectUrl(url).warnings[1]).toBe(
      "名称“a\u0430\u03b1”混用了拉丁字母、西里尔字母和希腊字母，这些字母可能与其他字母看起来一模一样。",
    );
    expect(inspectUrl("https://login.examp1e.net/", "Use example.com or example.org").warnings).toEqual([
      "消息中提到的是 example.com、example.org，但该地址指向 login.examp1e.net。",
    ]);
    expect(listed(["files", "everything"])).toBe("files、everything");
  });
});

describe("decodeLabel", () => {
  it("decodes punycode and rejects malformed labels", () => {
    expect(decodeLabel("mnchen-3ya")).toBe("münchen");
    expect(decodeLabel("e1afmkfd")).toBe("пример");
    expect(decodeLabel("!!!")).toBeUndefined();
  });
});

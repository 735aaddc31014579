import { describe, expect, it } from "vitest";
import { inspectUrl } from "./inspectUrl";
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

describe("decodeLabel", () => {
  it("decodes punycode and rejects malformed labels", () => {
    expect(decodeLabel("mnchen-3ya")).toBe("münchen");
    expect(decodeLabel("e1afmkfd")).toBe("пример");
    expect(decodeLabel("!!!")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { base64Size, dataUrl, decodeBase64Text, formatBytes, normalizeMime } from "./binary";
import { applyLanguage } from "../i18n";

describe("base64 payloads", () => {
  it("knows their size without decoding", () => {
    expect(base64Size("")).toBe(0);
    expect(base64Size("QQ==")).toBe(1);
    expect(base64Size("QUI=")).toBe(2);
    expect(base64Size("QUJD\nREVG")).toBe(6);
  });

  it("decodes UTF-8 text", () => {
    expect(decodeBase64Text(btoa(String.fromCharCode(...new TextEncoder().encode("héllo ✓"))))).toBe("héllo ✓");
    expect(decodeBase64Text("***")).toBeNull();
  });

  it("builds data URLs only from a well-formed type and data", () => {
    expect(dataUrl(normalizeMime("Image/PNG; charset=x"), "QUJD")).toBe("data:image/png;base64,QUJD");
    expect(dataUrl(normalizeMime("image/png,<x>"), "QUJD")).toBeNull();
    expect(dataUrl("image/png", "QUJD\"><x")).toBeNull();
  });

  it("reads sizes as a person would", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(900)).toBe("900 bytes");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
    expect(formatBytes(1023.5 * 1024)).toBe("1,023.5 KB");
  });

  it("reads sizes in Chinese as a Chinese reader would", () => {
    applyLanguage("zh-CN");
    try {
      expect(formatBytes(1)).toBe("1 字节");
      expect(formatBytes(900)).toBe("900 字节");
      expect(formatBytes(1536)).toBe("1.5 KB");
    } finally {
      applyLanguage("en");
    }
  });
});

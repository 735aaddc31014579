import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Resource } from "../mcp/schema";
import { applyLanguage } from "../i18n";
import { ResourceDetail } from "./ResourceDetail";
import { formatDateTime } from "../servers/time";

afterEach(cleanup);

const resource: Resource = {
  uri: "demo://status",
  name: "status",
  title: "Server status",
  description: "How the server is doing",
  mimeType: "application/json",
  size: 2048,
};

const base = {
  server: "demo",
  resource,
  onRead: () => {},
  subscribed: false,
  canSubscribe: true,
  onToggleSubscribe: () => {},
};

describe("ResourceDetail", () => {
  it("shows what the resource is", () => {
    const { container } = render(<ResourceDetail {...base} />);
    expect(screen.getByRole("heading", { name: "Server status" })).toBeTruthy();
    expect(container.textContent).toContain("demo://status");
    expect(container.textContent).toContain("application/json, 2.0 KB");
    expect(container.textContent).toContain("How the server is doing");
  });

  it("reads on request and shows the contents", async () => {
    const onRead = vi.fn();
    const { rerender, container } = render(<ResourceDetail {...base} onRead={onRead} />);
    await userEvent.click(screen.getByRole("button", { name: "Read" }));
    expect(onRead).toHaveBeenCalledOnce();
    rerender(<ResourceDetail {...base} contents={[{ uri: "demo://status", mimeType: "application/json", text: '{"up":true}' }]} />);
    expect(container.querySelector("pre")?.textContent).toBe('{\n  "up": true\n}');
  });

  it("subscribes and unsubscribes, and says when an update came", async () => {
    const onToggleSubscribe = vi.fn();
    const { rerender } = render(<ResourceDetail {...base} onToggleSubscribe={onToggleSubscribe} />);
    await userEvent.click(screen.getByRole("button", { name: "Subscribe to updates" }));
    expect(onToggleSubscribe).toHaveBeenCalledOnce();

    const at = new Date(2026, 0, 2, 15, 4, 5).getTime();
    rerender(<ResourceDetail {...base} subscribed updatedAt={at} />);
    expect(screen.getByRole("button", { name: "Unsubscribe" })).toBeTruthy();
    const status = screen.getByRole("status");
    expect(status.textContent).toBe(`Updated ${formatDateTime(at)}`);
    expect(status.querySelector("time")?.getAttribute("datetime")).toBe(new Date(at).toISOString());
  });

  it("offers no subscription when the server has none", () => {
    render(<ResourceDetail {...base} canSubscribe={false} />);
    expect(screen.queryByRole("button", { name: /Subscribe/ })).toBeNull();
  });

  it("shows a failed read", () => {
    render(<ResourceDetail {...base} error="Resource not found" />);
    expect(screen.getByRole("alert").textContent).toBe("Resource not found");
  });
});

describe("ResourceDetail in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the resource: reading, subscribing, its last update", () => {
    act(() => applyLanguage("zh-CN"));
    const { rerender } = render(<ResourceDetail {...base} />);
    expect(screen.getByText("的资源", { exact: false }).textContent).toBe("demo 的资源");
    expect(screen.getByRole("heading", { name: "Server status" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "读取" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "订阅更新" })).toBeTruthy();

    const at = new Date(2026, 0, 2, 15, 4, 5).getTime();
    rerender(<ResourceDetail {...base} subscribed updatedAt={at} />);
    expect(screen.getByRole("button", { name: "取消订阅" })).toBeTruthy();
    const status = screen.getByRole("status");
    expect(status.textContent).toBe(`更新于 ${formatDateTime(at)}`);
    expect(formatDateTime(at)).toContain("2026年1月2日");
    expect(status.querySelector("time")?.getAttribute("datetime")).toBe(new Date(at).toISOString());
  });
});

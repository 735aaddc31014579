import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useFollowTail } from "./followTail";
import { applyLanguage } from "./i18n";

afterEach(cleanup);

function Lines({ lines }: { lines: string[] }) {
  const { listRef, onScroll, jumpToLatest } = useFollowTail(lines);
  return (
    <>
      <div role="log" ref={listRef} onScroll={onScroll}>
        {lines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </div>
      {jumpToLatest}
    </>
  );
}

/** A list scrolled up from its bottom by the person. */
function scrolledUp() {
  const view = render(<Lines lines={["one"]} />);
  const log = screen.getByRole("log");
  // jsdom has no layout: give the list a height and a scrollable content size.
  Object.defineProperty(log, "clientHeight", { configurable: true, value: 100 });
  Object.defineProperty(log, "scrollHeight", { configurable: true, get: () => 1000 });
  view.rerender(<Lines lines={["one", "two"]} />);
  log.scrollTop = 200;
  fireEvent.scroll(log);
  return log;
}

describe("a list that follows its newest lines", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("offers to jump to the latest once the person scrolls up", () => {
    const log = scrolledUp();
    fireEvent.click(screen.getByRole("button", { name: "Jump to latest" }));
    expect(log.scrollTop).toBe(1000);
    expect(screen.queryByRole("button", { name: "Jump to latest" })).toBeNull();
  });

  it("offers it in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    scrolledUp();
    expect(screen.getByRole("button", { name: "跳到最新" })).toBeTruthy();
  });
});

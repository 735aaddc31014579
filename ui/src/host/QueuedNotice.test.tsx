import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Pending } from "../bindings";
import { QueuedNotice } from "./QueuedNotice";

afterEach(cleanup);

const roots = (id: number, server: string, forward = false): Pending => ({
  id,
  server,
  deadlineMs: Date.now() + 60_000,
  forward,
  question: { kind: "roots" },
});

describe("the notice of requests waiting in the queue", () => {
  it("names the oldest, opens it on Review, and leads to the rest", async () => {
    const onReview = vi.fn();
    const onShowAll = vi.fn();
    render(
      <QueuedNotice
        pending={[roots(1, "files"), roots(2, "everything"), roots(3, "now", true)]}
        selectedId={null}
        onReview={onReview}
        onShowAll={onShowAll}
      />,
    );
    const notice = screen.getByRole("status", { name: "Requests waiting" });
    expect(notice.textContent).toContain("files wants to know which folders it may see");
    expect(notice.textContent).toContain("1 more request waits");
    await userEvent.click(screen.getByRole("button", { name: "Review" }));
    expect(onReview).toHaveBeenCalledWith(1);
    await userEvent.click(screen.getByRole("button", { name: "Show all" }));
    expect(onShowAll).toHaveBeenCalled();
  });

  it("says nothing of requests that come forward or of the one open", () => {
    render(<QueuedNotice pending={[roots(1, "files"), roots(2, "now", true)]} selectedId={1} onReview={() => {}} onShowAll={() => {}} />);
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("is put aside with Later until another request arrives", async () => {
    const props = { selectedId: null, onReview: () => {}, onShowAll: () => {} };
    const { rerender } = render(<QueuedNotice pending={[roots(1, "files")]} {...props} />);
    await userEvent.click(screen.getByRole("button", { name: "Later" }));
    expect(screen.queryByRole("status")).toBeNull();
    rerender(<QueuedNotice pending={[roots(1, "files"), roots(2, "everything")]} {...props} />);
    expect(screen.getByRole("status").textContent).toContain("files");
  });
});

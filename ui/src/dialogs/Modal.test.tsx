import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { Modal } from "./Modal";

afterEach(cleanup);

function Dialog({ onCancel = vi.fn(), onPrimary }: { onCancel?: () => void; onPrimary?: () => void }) {
  return (
    <Modal
      title="Rename the server"
      subtitle="It keeps its settings"
      onCancel={onCancel}
      onPrimary={onPrimary}
      footer={
        <>
          <button className="button">Cancel</button>
          <button className="button primary" onClick={onPrimary}>
            Rename
          </button>
        </>
      }
    >
      <label>
        Name <input />
      </label>
      <label>
        Notes <textarea />
      </label>
    </Modal>
  );
}

/** A page with a button that opens the dialog, to see where the focus goes back to. */
function Page() {
  const [shown, setShown] = useState(false);
  return (
    <>
      <button onClick={() => setShown(true)}>Open</button>
      {shown && <Dialog onCancel={() => setShown(false)} />}
    </>
  );
}

describe("Modal", () => {
  it("is a modal dialog named by its title and described by its subtitle", () => {
    render(<Dialog />);
    const dialog = screen.getByRole("dialog", { name: "Rename the server" });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "It keeps its settings",
    );
  });

  it("starts on the first field and gives the focus back when it closes", async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Name" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open" }));
  });

  it("gives the focus back beside the control that opened it while that control is disabled, then to it", async () => {
    const user = userEvent.setup();
    /** Open starts a call once the dialog is answered: disabled while it runs, Stop beside it. */
    let finish = () => {};
    function Call() {
      const [asking, setAsking] = useState(false);
      const [running, setRunning] = useState(false);
      // The call ends when the test says, not after some time: a busy machine may take longer to answer the dialog.
      finish = () => setRunning(false);
      const answer = () => {
        setAsking(false);
        setRunning(true);
      };
      return (
        <>
          <button>Elsewhere</button>
          <div>
            <button disabled={asking || running} onClick={() => setAsking(true)}>
              Open
            </button>
            {running && <button onClick={() => setRunning(false)}>Stop</button>}
          </div>
          {asking && <Dialog onCancel={answer} />}
        </>
      );
    }
    render(<Call />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.keyboard("{Escape}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Stop" }));
    act(() => finish());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open" })));
  });

  it("gives the focus back to what replaced the control that opened it", async () => {
    const user = userEvent.setup();
    function Swap() {
      const [shown, setShown] = useState(false);
      const [opened, setOpened] = useState(false);
      return (
        <>
          <button>Elsewhere</button>
          <div>
            {opened ? (
              <button key="again">Open again</button>
            ) : (
              <button key="open" onClick={() => setShown(true)}>
                Open
              </button>
            )}
          </div>
          {shown && (
            <Dialog
              onCancel={() => {
                setShown(false);
                setOpened(true);
              }}
            />
          )}
        </>
      );
    }
    render(<Swap />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.keyboard("{Escape}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open again" }));
  });

  it("starts on the primary button when there is no field", () => {
    render(
      <Modal
        title="Delete?"
        onCancel={vi.fn()}
        onPrimary={vi.fn()}
        footer={
          <>
            <button className="button">Keep</button>
            <button className="button primary">Delete</button>
          </>
        }
      >
        <p>It cannot be undone.</p>
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Delete" }));
  });

  it("keeps Tab and Shift+Tab inside the dialog", async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    const name = screen.getByRole("textbox", { name: "Name" });
    const rename = screen.getByRole("button", { name: "Rename" });
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Notes" }));
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(rename);
    await user.tab();
    expect(document.activeElement).toBe(name);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(rename);
  });

  it("runs the primary action on Enter, except in a multi-line field or on a button", async () => {
    const user = userEvent.setup();
    const onPrimary = vi.fn();
    const onCancel = vi.fn();
    render(<Dialog onPrimary={onPrimary} onCancel={onCancel} />);
    await user.keyboard("{Enter}");
    expect(onPrimary).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole("textbox", { name: "Notes" }));
    await user.keyboard("{Enter}");
    expect(onPrimary).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await user.keyboard("{Enter}");
    expect(onPrimary).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it("does nothing on Enter while the primary action is not allowed, and cancels on Esc", async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    render(<Dialog onCancel={onCancel} />);
    await user.keyboard("{Enter}");
    expect(onCancel).not.toHaveBeenCalled();
    await user.keyboard("{Escape}");
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("leaves keys of a dialog opened above it to that dialog", async () => {
    const user = userEvent.setup();
    const lower = vi.fn();
    const upper = vi.fn();
    render(
      <Modal title="Lower" onCancel={lower} footer={null}>
        <Modal title="Upper" onCancel={upper} footer={<button className="button">Close</button>}>
          <input aria-label="Inner" />
        </Modal>
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Inner" }));
    await user.keyboard("{Escape}");
    expect(upper).toHaveBeenCalledTimes(1);
    expect(lower).not.toHaveBeenCalled();
  });
});

describe("Modal focus when dialogs follow each other", () => {
  it("gives the focus back to the page when a dialog replaces another and then closes", async () => {
    const user = userEvent.setup();
    function Queue() {
      const [left, setLeft] = useState<string[]>([]);
      const [current] = left;
      return (
        <>
          <button onClick={() => setLeft(["first", "second"])}>Start</button>
          {current && (
            <Modal
              key={current}
              title={current}
              onCancel={() => setLeft((l) => l.slice(1))}
              footer={<button className="button">Done</button>}
            >
              <input aria-label={`${current} field`} />
            </Modal>
          )}
        </>
      );
    }
    render(<Queue />);
    await user.click(screen.getByRole("button", { name: "Start" }));
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "first field" }));
    await user.keyboard("{Escape}");
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "second field" }));
    await user.keyboard("{Escape}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Start" }));
  });
});

describe("Modal in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("is named by its Chinese title, and Enter that ends a Chinese input method's word does not run the primary action", () => {
    act(() => applyLanguage("zh-CN"));
    const onPrimary = vi.fn();
    render(
      <Modal
        title="重命名服务器"
        subtitle="它会保留自己的设置"
        onCancel={vi.fn()}
        onPrimary={onPrimary}
        footer={
          <>
            <button className="button">取消</button>
            <button className="button primary">重命名</button>
          </>
        }
      >
        <label>
          名称 <input />
        </label>
      </Modal>,
    );
    const dialog = screen.getByRole("dialog", { name: "重命名服务器" });
    expect(document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent).toBe("它会保留自己的设置");
    expect(document.documentElement.lang).toBe("zh-CN");
    const name = screen.getByRole("textbox", { name: "名称" });
    expect(document.activeElement).toBe(name);
    // Pinyin being composed: Enter picks the characters, it does not confirm the dialog.
    fireEvent.keyDown(name, { key: "Enter", isComposing: true });
    expect(onPrimary).not.toHaveBeenCalled();
    fireEvent.keyDown(name, { key: "Enter" });
    expect(onPrimary).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "重命名" })).toBeTruthy();
  });
});

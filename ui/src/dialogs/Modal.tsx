import { createContext, useContext, useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import "./modal.css";

export interface ModalProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Esc. */
  onCancel(): void;
  /** Enter outside multi-line fields and buttons. Leave it out while the primary action is not allowed. */
  onPrimary?: (() => void) | undefined;
  children: ReactNode;
  /** The buttons; the primary one carries the class "primary". */
  footer: ReactNode;
  /** An extra class on the dialog box, e.g. "modal-wide". */
  className?: string;
}

const FIELDS = ["input:not([type=hidden])", "select", "textarea"].map((s) => `${s}:not([disabled])`).join(",");
const FOCUSABLE = [
  FIELDS,
  "button:not([disabled])",
  "a[href]",
  "audio[controls]",
  "video[controls]",
  "summary",
  "[contenteditable=true]",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/**
 * Open dialogs, the topmost last: only it handles keys and holds the focus. A dialog opened
 * from inside another is above it even though React mounts the inner one first.
 */
const open: Array<{ box: HTMLElement; depth: number }> = [];
const Depth = createContext(0);

const topmost = () => open.at(-1)?.box;

function push(box: HTMLElement, depth: number) {
  const above = open.findIndex((entry) => entry.depth > depth);
  open.splice(above < 0 ? open.length : above, 0, { box, depth });
}

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest("[hidden], [inert]"));
}

/** Enter on these does its own thing (a new line, a click); it must not also run the primary action. */
function handlesEnter(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return ["button", "submit", "reset", "file", "image"].includes(target.type);
  return ["TEXTAREA", "BUTTON", "A", "SUMMARY", "AUDIO", "VIDEO"].includes(target.tagName);
}

/**
 * The one modal of the app: a labelled dialog over a backdrop that keeps the focus inside,
 * starts on the first field (or the primary button) and gives the focus back on close.
 */
export function Modal({ title, subtitle, onCancel, onPrimary, children, footer, className }: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const subtitleId = useId();
  // Read while rendering, before this dialog takes the focus.
  const previous = useRef(document.activeElement);
  const hasPrimary = onPrimary !== undefined;
  const depth = useContext(Depth);

  useEffect(() => {
    const box = dialog.current;
    if (!box) return;
    // When one dialog replaces another, the element read while rendering is already gone;
    // by now the closed dialog has given the focus back to where it came from.
    const before = previous.current?.isConnected ? previous.current : document.activeElement;
    // Where it was, should the control itself be gone or disabled when the dialog closes.
    const around = ancestorsOf(before);
    push(box, depth);
    const start =
      box.querySelector<HTMLElement>("[data-autofocus]") ??
      box.querySelector(".modal-body")?.querySelector<HTMLElement>(FIELDS) ??
      (hasPrimary ? box.querySelector<HTMLElement>(".modal-footer .primary:not(:disabled)") : null) ??
      box;
    if (topmost() === box) start.focus();
    // A click on the page behind must not take the focus out of the topmost dialog.
    const keepFocus = (e: FocusEvent) => {
      if (topmost() === box && e.target instanceof Node && !box.contains(e.target)) box.focus();
    };
    document.addEventListener("focusin", keepFocus);
    return () => {
      document.removeEventListener("focusin", keepFocus);
      const wasTop = topmost() === box;
      open.splice(
        open.findIndex((entry) => entry.box === box),
        1,
      );
      if (!wasTop) return;
      const below = topmost();
      if (below && !(before instanceof HTMLElement && below.contains(before))) below.focus();
      else giveFocusBack(before, around);
    };
    // The focus is placed once, when the dialog opens, whatever the props become later.
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const box = dialog.current;
    // Keys from a dialog opened above this one bubble here through React: not ours.
    if (!box || topmost() !== box || !(e.target instanceof Node) || !box.contains(e.target)) return;
    if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    } else if (e.key === "Tab") {
      trapTab(e, box);
    } else if (
      e.key === "Enter" &&
      onPrimary &&
      !e.defaultPrevented &&
      !e.nativeEvent.isComposing &&
      !(e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) &&
      !handlesEnter(e.target)
    ) {
      e.preventDefault();
      onPrimary();
    }
  };

  return createPortal(
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className={className ? `modal ${className}` : "modal"}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={subtitle ? subtitleId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          {subtitle && (
            <div id={subtitleId} className="modal-subtitle">
              {subtitle}
            </div>
          )}
        </header>
        <div className="modal-body">
          <Depth.Provider value={depth + 1}>{children}</Depth.Provider>
        </div>
        <footer className="modal-footer">{footer}</footer>
      </div>
    </div>,
    document.body,
  );
}

/** `el`'s ancestors, nearest first, short of the page's body. */
function ancestorsOf(el: Element | null): Element[] {
  const chain: Element[] = [];
  for (let at = el?.parentElement; at && at !== document.body; at = at.parentElement) chain.push(at);
  return chain;
}

/**
 * Focuses `before`, the control the dialog was opened from. When it is gone (replaced) or
 * disabled (the call it started still runs), the nearest control still beside it takes the
 * focus instead; a disabled one gets it back once enabled, unless the person moved on.
 */
function giveFocusBack(before: Element | null, around: Element[]) {
  if (before instanceof HTMLElement && before.isConnected) {
    before.focus();
    if (document.activeElement === before) return;
  }
  let standIn: HTMLElement | undefined;
  for (const ancestor of around) {
    if (!ancestor.isConnected) continue;
    standIn = focusables(ancestor as HTMLElement).find((el) => el !== before);
    if (standIn) break;
  }
  standIn?.focus();
  if (!(before instanceof HTMLElement) || !before.isConnected) return;
  // Back to the control once it can take the focus, if nothing else took it meanwhile.
  const stillHere = () => {
    const active = document.activeElement;
    return active === null || active === document.body || active === standIn;
  };
  const watch = new MutationObserver(() => {
    if (!before.isConnected || !stillHere()) return stop();
    if (before.matches(":disabled")) return;
    before.focus();
    stop();
  });
  const moved = () => {
    if (!stillHere()) stop();
  };
  function stop() {
    watch.disconnect();
    document.removeEventListener("focusin", moved);
  }
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
  document.addEventListener("focusin", moved);
}

/** Tab and Shift+Tab go round the dialog's controls instead of leaving it. */
function trapTab(e: KeyboardEvent<HTMLElement>, box: HTMLElement) {
  const items = focusables(box);
  const first = items[0];
  const last = items.at(-1);
  const active = document.activeElement;
  if (!first || !last) {
    e.preventDefault();
    box.focus();
  } else if (e.shiftKey && (active === first || active === box)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

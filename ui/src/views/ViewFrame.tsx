import { useEffect, useRef, useState } from "react";
import { commands, type OpenedView_Serialize } from "../bindings";
import { errorMessage } from "../errors";
import { tx, useLocale, useT } from "../i18n";
import type { CallToolResult, Tool } from "../mcp/schema";
import { Bridge, MOST_HEIGHT, type Conversation, type DisplayMode, type Downloadable } from "./bridge";
import { DownloadDialog, LinkDialog, ViewChanged } from "./ViewAsks";
import { shownTheme, useShownTheme } from "../theme";
import "./views.css";

interface Props {
  server: string;
  /** The view's `ui://` resource. */
  uri: string;
  tool: Tool;
  /** The call's arguments: null while a model still writes them, or when opened without a call. */
  arguments: Record<string, unknown> | null;
  /** The arguments as far as a model has written them. */
  partial?: Record<string, unknown> | null | undefined;
  result: CallToolResult | null;
  /** Why the call will have no result (denied, failed, stopped). */
  cancelled?: string | null | undefined;
  /** The conversation the view lives in; outside one, it may not write to any. */
  conversation?: Conversation | undefined;
  /** Closes the view, where the person opened it on its own. */
  onClose?: (() => void) | undefined;
}

let calls = 0;

/** The height a view starts at, until it says its own. */
const FIRST_HEIGHT = 160;

/** What a view asked that waits for the person. */
type Ask = { kind: "link"; url: string; answer(open: boolean): void } | { kind: "download"; files: Downloadable[]; answer(saved: boolean): void };

/**
 * A tool's view (MCP Apps), in a frame that says whose it is: served on its server's own
 * origin (a port on 127.0.0.1), in a sandboxed frame, speaking to the window only through
 * the bridge's messages, which only this frame's are taken for. What it may load is shown.
 * It is shown inline or over the whole window, as the person or the view asks; a link it
 * opens and a file it saves are the person's to agree to.
 */
export function ViewFrame({ server, uri, tool, arguments: args, partial, result, cancelled, conversation, onClose }: Props) {
  const t = useT();
  const [opened, setOpened] = useState<OpenedView_Serialize | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [height, setHeight] = useState(FIRST_HEIGHT);
  const [mode, setMode] = useState<DisplayMode>("inline");
  const [asking, setAsking] = useState<Ask | null>(null);
  // The changed view the person agreed to (its hash), or declined.
  const [agreed, setAgreed] = useState<string | null>(null);
  const [skipped, setSkipped] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<Bridge | null>(null);
  // The latest of these, for a bridge made once per view.
  // The window's language, the view's to speak too (MCP Apps' `locale`), not the browser's.
  const locale = useLocale();
  const theme = useShownTheme();
  const around = useRef({ conversation, onClose, asking, locale });
  around.current = { conversation, onClose, asking, locale };

  useEffect(() => {
    let gone = false;
    setOpened(null);
    setError(null);
    commands.openView(server, uri, agreed).then(
      (view) => !gone && setOpened(view),
      (err: unknown) => !gone && setError(errorMessage(err)),
    );
    return () => {
      gone = true;
    };
  }, [server, uri, agreed]);

  const url = opened?.url ?? null;
  useEffect(() => {
    if (!url) return;
    const origin = new URL(url).origin;
    const context = {
      theme: shownTheme(),
      locale: around.current.locale,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: "desktop",
      displayMode: "inline",
      containerDimensions: { maxHeight: MOST_HEIGHT },
    };
    // One question at a time: a view asking again while the person decides is told no.
    const ask = <T extends Ask>(made: (answer: (yes: boolean) => void) => T) =>
      new Promise<boolean>((answer) => {
        if (around.current.asking) answer(false);
        else setAsking(made(answer));
      });
    const made = new Bridge(
      {
        post: (message) => frame.current?.contentWindow?.postMessage(message, origin),
        resize: setHeight,
        readResource: (wanted) => commands.readResource(server, wanted),
        callTool: (name, given) => commands.callForView(server, name, given as never, `view-${++calls}`),
        requestDisplayMode: (wanted) => {
          setMode(wanted);
          return wanted;
        },
        openLink: async (url) => (await ask((answer) => ({ kind: "link", url, answer }))) && (await commands.openWebLink(url), true),
        download: (files) => ask((answer) => ({ kind: "download", files, answer })),
        get conversation() {
          return around.current.conversation;
        },
        get close() {
          const onClose = around.current.onClose;
          return onClose && (() => void made.teardown().then(onClose));
        },
      },
      { tool, arguments: args },
      context,
    );
    bridge.current = made;
    const listen = (event: MessageEvent) => {
      // Only this frame's messages, from the origin it was served on.
      if (event.source !== frame.current?.contentWindow || event.origin !== origin) return;
      made.receive(event.data);
    };
    window.addEventListener("message", listen);
    return () => {
      window.removeEventListener("message", listen);
      void made.teardown();
      bridge.current = null;
    };
    // The tool is the one the view was opened for; the call's state follows below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, server]);

  useEffect(() => {
    bridge.current?.contextChanged({ locale });
  }, [locale]);

  useEffect(() => {
    bridge.current?.contextChanged({ theme });
  }, [theme]);

  useEffect(() => {
    if (args) bridge.current?.toolInput(args);
    else if (partial) bridge.current?.toolInputPartial(partial);
  }, [args, partial, url]);
  useEffect(() => {
    if (result) bridge.current?.toolResult(result);
  }, [result, url]);
  useEffect(() => {
    if (cancelled) bridge.current?.toolCancelled(cancelled);
  }, [cancelled, url]);

  useEffect(() => {
    const box = frame.current;
    bridge.current?.contextChanged({
      displayMode: mode,
      containerDimensions: mode === "fullscreen" && box ? { height: box.clientHeight, width: box.clientWidth } : { maxHeight: MOST_HEIGHT },
    });
    if (mode !== "fullscreen") return;
    const back = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !around.current.asking) setMode("inline");
    };
    window.addEventListener("keydown", back);
    return () => window.removeEventListener("keydown", back);
  }, [mode]);

  const answered = (yes: boolean) => {
    asking?.answer(yes);
    setAsking(null);
  };
  const label = t("views.frame.label", { server });
  return (
    <section className={`view-frame${opened?.prefersBorder === false ? " borderless" : ""}${mode === "fullscreen" ? " fullscreen" : ""}`} aria-label={label}>
      <header className="view-frame-head">
        <span>{tx("views.frame.heading", { strong: (c) => <strong>{c}</strong>, server })}</span>
        {opened && (
          <details className="view-frame-policy">
            <summary>{t("views.frame.policy")}</summary>
            <code>{opened.policy}</code>
          </details>
        )}
        <span className="view-frame-actions">
          {url && (
            <button type="button" className="button small" aria-pressed={mode === "fullscreen"} onClick={() => setMode(mode === "fullscreen" ? "inline" : "fullscreen")}>
              {mode === "fullscreen" ? t("views.frame.inline") : t("views.frame.fullscreen")}
            </button>
          )}
          {onClose && (
            <button type="button" className="button small" onClick={() => void (bridge.current?.teardown() ?? Promise.resolve()).then(onClose)}>
              {t("views.frame.close")}
            </button>
          )}
        </span>
      </header>
      {error && (
        <p role="alert" className="error">
          {t("views.frame.error", { error })}
        </p>
      )}
      {opened?.changed &&
        (skipped ? (
          <p className="view-frame-note muted">{t("views.frame.skipped")}</p>
        ) : (
          <ViewChanged server={server} change={opened.changed} onShow={() => setAgreed(opened.sha256)} onSkip={() => setSkipped(true)} />
        ))}
      {url && (
        <iframe
          ref={frame}
          title={t("views.frame.title", { server, tool: tool.title ?? tool.name })}
          src={url}
          sandbox="allow-scripts allow-same-origin"
          style={mode === "inline" ? { height } : undefined}
        />
      )}
      {asking?.kind === "link" && <LinkDialog server={server} url={asking.url} onAnswer={answered} />}
      {asking?.kind === "download" && (
        <DownloadDialog server={server} files={asking.files} onSave={async (file) => (await commands.saveDownload(server, file as never)) !== null} onDone={answered} />
      )}
    </section>
  );
}

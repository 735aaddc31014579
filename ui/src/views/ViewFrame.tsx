import { useEffect, useRef, useState } from "react";
import { commands, type OpenedView_Serialize } from "../bindings";
import { errorMessage } from "../errors";
import type { CallToolResult, Tool } from "../mcp/schema";
import { Bridge } from "./bridge";
import "./views.css";

interface Props {
  server: string;
  /** The view's `ui://` resource. */
  uri: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  result: CallToolResult | null;
}

let calls = 0;

/** The height a view starts at, until it says its own. */
const FIRST_HEIGHT = 160;

/**
 * A tool's view (MCP Apps), in a frame that says whose it is: served on its server's own
 * origin (a port on 127.0.0.1), in a sandboxed frame, speaking to the window only through
 * the bridge's messages, which only this frame's are taken for. What it may load is shown.
 */
export function ViewFrame({ server, uri, tool, arguments: args, result }: Props) {
  const [opened, setOpened] = useState<OpenedView_Serialize | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [height, setHeight] = useState(FIRST_HEIGHT);
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<Bridge | null>(null);

  useEffect(() => {
    let gone = false;
    setOpened(null);
    setError(null);
    commands.openView(server, uri).then(
      (view) => !gone && setOpened(view),
      (err: unknown) => !gone && setError(errorMessage(err)),
    );
    return () => {
      gone = true;
    };
  }, [server, uri]);

  useEffect(() => {
    if (!opened) return;
    const origin = new URL(opened.url).origin;
    const context = {
      theme: window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light",
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: "desktop",
      containerDimensions: { maxHeight: 800 },
    };
    const made = new Bridge(
      {
        post: (message) => frame.current?.contentWindow?.postMessage(message, origin),
        resize: setHeight,
        readResource: (wanted) => commands.readResource(server, wanted),
        callTool: (name, given) => commands.callForView(server, name, given as never, `view-${++calls}`),
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
      bridge.current = null;
    };
    // The call's arguments and tool are those the view was opened for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, server]);

  useEffect(() => {
    if (result) bridge.current?.toolResult(result);
  }, [result, opened]);

  return (
    <section className={`view-frame${opened?.prefersBorder === false ? " borderless" : ""}`} aria-label={`App from ${server}`}>
      <header className="view-frame-head">
        <span>
          App from <strong>{server}</strong>
        </span>
        {opened && (
          <details className="view-frame-policy">
            <summary>What it may load</summary>
            <code>{opened.policy}</code>
          </details>
        )}
      </header>
      {error && (
        <p role="alert" className="error">
          The app could not be shown: {error}
        </p>
      )}
      {opened && (
        <iframe
          ref={frame}
          title={`App from ${server}: ${tool.title ?? tool.name}`}
          src={opened.url}
          sandbox="allow-scripts allow-same-origin"
          style={{ height }}
        />
      )}
    </section>
  );
}

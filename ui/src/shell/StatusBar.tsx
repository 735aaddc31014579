import { useEffect, useState } from "react";
import { commands, type AppInfo } from "../bindings";
import { errorMessage } from "../errors";

type State = { kind: "loading" } | { kind: "ready"; info: AppInfo } | { kind: "failed"; message: string };

/**
 * The app's identity and where its configuration lives, fetched from the Rust side, and
 * what the host had to do about its audit trail (a damaged file moved aside).
 */
export function StatusBar() {
  const [state, setState] = useState<State>({ kind: "loading" });
  useEffect(() => {
    let live = true;
    commands.appInfo().then(
      (info) => live && setState({ kind: "ready", info }),
      (err: unknown) => live && setState({ kind: "failed", message: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <footer className="status-bar" aria-live="polite">
      {state.kind === "loading" && <span className="muted">Connecting to the host…</span>}
      {state.kind === "failed" && (
        <span role="alert" className="error">
          The host did not answer: {state.message}
        </span>
      )}
      {state.kind === "ready" && (
        <>
          <span data-testid="app-version">
            {state.info.name} {state.info.version}
          </span>
          <span>
            Config: <code data-testid="config-path">{state.info.configPath}</code>
          </span>
          <span data-testid="protocol-revisions" title="Protocol revisions spoken, newest first">
            MCP {state.info.protocolRevisions.join(" · ")}
          </span>
          {state.info.auditNotices.map((notice) => (
            <span key={notice} role="alert" className="error">
              Audit trail: {notice}
            </span>
          ))}
        </>
      )}
    </footer>
  );
}

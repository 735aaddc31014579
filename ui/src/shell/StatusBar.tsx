import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { configProblemText } from "./configProblem";
import { useFetched } from "../host/updates";
import { fileNoticeText } from "./fileNotices";
import { useT } from "../i18n";

/**
 * The app's identity and where its configuration lives, fetched from the Rust side; what
 * is wrong with the configuration file (fetched again whenever the file changes); and what
 * the host had to do about the files it keeps (a damaged one moved aside).
 */
export function StatusBar() {
  const t = useT();
  const fetched = useFetched(() => commands.appInfo(), ["config_changed"]);
  const state = fetched.data
    ? ({ kind: "ready", info: fetched.data } as const)
    : fetched.error
      ? ({ kind: "failed", message: errorMessage(fetched.error) } as const)
      : ({ kind: "loading" } as const);

  return (
    <footer className="status-bar" aria-live="polite">
      {state.kind === "loading" && <span className="muted">{t("shell.status.connecting")}</span>}
      {state.kind === "failed" && (
        <span role="alert" className="error">
          {t("shell.status.noAnswer", { message: state.message })}
        </span>
      )}
      {state.kind === "ready" && (
        <>
          <span data-testid="app-version">
            {state.info.name} {state.info.version}
          </span>
          <span>
            {t("shell.status.config")} <code data-testid="config-path">{state.info.configPath}</code>
          </span>
          <span data-testid="protocol-revisions" title={t("shell.status.revisions")}>
            MCP {state.info.protocolRevisions.join(" · ")}
          </span>
          {state.info.configProblem && (
            <span role="alert" className="error" data-testid="config-problem">
              {t("shell.status.configProblem", { problem: configProblemText(state.info.configProblem) })}
            </span>
          )}
          {state.info.auditNotices.map((notice) => (
            <span key={notice.kind === "retentionUnread" ? notice.key : notice.book} role="alert" className="error">
              {fileNoticeText(notice)}
            </span>
          ))}
        </>
      )}
    </footer>
  );
}

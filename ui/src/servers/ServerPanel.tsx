import { useId, useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import type { LoggingLevel } from "../mcp/schema";
import { ServerDetails } from "./ServerDetails";
import { LogPane } from "./LogPane";
import { SharedFolders } from "./SharedFolders";
import { SandboxNote } from "./SandboxNote";
import { ServerTools } from "./ServerTools";
import { ServerTraffic } from "./ServerTraffic";
import type { ServerState_Serialize as ServerState, ServerSummary_Serialize as ServerSummary } from "../bindings";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";
import { useServerLog } from "./useServerLog";

/**
 * One server: what it said of itself, its folders, its sandbox (a local one) and tools, its
 * log and its traffic.
 */
export function ServerPanel({
  name,
  state,
  local = false,
  sandbox = null,
  onChangeSandbox,
}: {
  name: string;
  state: ServerState | null;
  /** A program on this machine (not reached over HTTP). */
  local?: boolean;
  sandbox?: ServerSummary["sandbox"];
  /** Opens the server's settings, where its sandbox is changed. */
  onChangeSandbox?: () => void;
}) {
  const t = useT();
  const info = useFetched(() => commands.serverInfo(name), ["status"], [name]);
  const signedIn = useFetched(() => commands.signedIn(name), ["status"], [name]);
  const waiting = useFetched(() => commands.signInWaiting(name), ["sign_in_waiting"], [name]);
  const initialized = info.data;
  const log = useServerLog(name);
  const [level, setLevel] = useState<LoggingLevel | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A sign-in waits until the server runs (or says why not); its dialog comes meanwhile.
  const act = (work: Promise<unknown>) => {
    setError(null);
    work.then(
      () => signedIn.refresh(),
      (err: unknown) => setError(errorMessage(err)),
    );
  };
  const [tab, setTab] = useState<"log" | "traffic">("log");
  const tabs = useId();
  return (
    <div className="server-panel">
      <ServerDetails
        name={name}
        state={state}
        signedIn={signedIn.data}
        onSignIn={() => act(commands.signIn(name))}
        onSignOut={() => act(commands.signOut(name))}
        onUseToken={(token) => act(commands.useAccessToken(name, token))}
        waitingForBrowser={waiting.data === true}
        onCancelSignIn={() => act(commands.cancelSignIn(name))}
        info={
          initialized && {
            protocolVersion: initialized.protocolVersion,
            serverInfo: initialized.serverInfo,
            capabilities: initialized.capabilities,
            instructions: initialized.instructions ?? null,
          }
        }
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {state?.state === "running" && <SharedFolders server={name} sandboxed={sandbox !== null} />}
      {local && <SandboxNote server={name} sandbox={sandbox} />}
      <ServerTools server={name} />
      <div role="tablist" aria-label={t("servers.panel.activity")} className="pane-tabs">
        {(
          [
            ["log", t("servers.panel.log")],
            ["traffic", t("servers.panel.traffic")],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`${tabs}-${key}`}
            aria-selected={tab === key}
            aria-controls={`${tabs}-panel`}
            onClick={() => setTab(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${tabs}-panel`} aria-labelledby={`${tabs}-${tab}`}>
        {tab === "traffic" ? (
          <ServerTraffic name={name} />
        ) : (
          <LogPane
            entries={log.entries}
            level={level}
            canSetLevel={initialized?.capabilities.logging !== undefined}
            onSetLevel={(next) =>
              commands.setLogLevel(name, next).then(
                () => setLevel(next),
                (err: unknown) => setError(errorMessage(err)),
              )
            }
            onClear={log.clear}
            onChangeSandbox={onChangeSandbox}
          />
        )}
      </div>
    </div>
  );
}

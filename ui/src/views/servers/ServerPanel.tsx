import { useState } from "react";
import { commands } from "../../bindings";
import { errorMessage } from "../../errors";
import type { InitializeResult, LoggingLevel } from "../../mcp/schema";
import { ServerDetails } from "../../servers/ServerDetails";
import { LogPane } from "../../servers/LogPane";
import { SharedFolders } from "./SharedFolders";
import { ServerTools } from "./ServerTools";
import type { LogEntry, ServerState } from "../../servers/types";
import { useFetched } from "../../host/updates";
import { useServerLog } from "./useServerLog";

/** One server: what it said of itself, its folders and tools, and its log. */
export function ServerPanel({ name, state }: { name: string; state: ServerState | null }) {
  const info = useFetched(() => commands.serverInfo(name), ["status"], [name]);
  const initialized = info.data as unknown as InitializeResult | null;
  const log = useServerLog(name);
  const [level, setLevel] = useState<LoggingLevel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const entries = log.entries as unknown as LogEntry[];
  return (
    <div className="server-panel">
      <ServerDetails
        name={name}
        state={state}
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
      {state?.state === "running" && <SharedFolders server={name} />}
      <ServerTools server={name} />
      <LogPane
        entries={entries}
        level={level}
        canSetLevel={initialized?.capabilities.logging !== undefined}
        onSetLevel={(next) =>
          commands.setLogLevel(name, next).then(
            () => setLevel(next),
            (err: unknown) => setError(errorMessage(err)),
          )
        }
        onClear={log.clear}
      />
    </div>
  );
}

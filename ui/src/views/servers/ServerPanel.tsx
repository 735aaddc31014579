import { useState } from "react";
import { commands, type LogEntry as HostLogEntry } from "../../bindings";
import { errorMessage } from "../../errors";
import type { InitializeResult, LoggingLevel } from "../../mcp/schema";
import { ServerDetails } from "../../servers/ServerDetails";
import { LogPane } from "../../servers/LogPane";
import { appendBounded } from "../../servers/liveLog";
import { SharedFolders } from "./SharedFolders";
import { ServerTools } from "./ServerTools";
import type { LogEntry, ServerState } from "../../servers/types";
import { useFetched, useHostUpdates } from "../../host/updates";

/** One server: what it said of itself, its folders and tools, and its log. */
export function ServerPanel({ name, state }: { name: string; state: ServerState | null }) {
  const info = useFetched(() => commands.serverInfo(name), ["status"], [name]);
  const initialized = info.data as unknown as InitializeResult | null;
  const history = useFetched(() => commands.serverLog(name), [], [name]);
  const [live, setLive] = useState<HostLogEntry[]>([]);
  const [level, setLevel] = useState<LoggingLevel | null>(null);
  const [error, setError] = useState<string | null>(null);
  useHostUpdates((update) => {
    if (update.kind === "log" && update.entry.server === name) setLive((l) => appendBounded(l, update.entry));
  });
  const entries = [...(history.data ?? []), ...live] as unknown as LogEntry[];
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
        onClear={() => {
          void commands.clearServerLog(name);
          setLive([]);
          history.refresh();
        }}
      />
    </div>
  );
}

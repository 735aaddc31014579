import { useState } from "react";
import { commands, type SandboxEngine, type SandboxSetting_Serialize as SandboxSetting } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";

/**
 * Whether a local server runs in the sandbox and what it may reach, its folders by name; one
 * outside it can be put in it here (it starts again), told first what it would then see.
 */
export function SandboxNote({ server, sandbox }: { server: string; sandbox: SandboxSetting | null }) {
  const view = useFetched(() => commands.sandboxView(server), ["servers_changed", "config_changed", "status"], [server]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sandboxIt = () => {
    setBusy(true);
    setMessage(null);
    commands.setSandbox(server, { network: false }).then(
      () => setBusy(false),
      (err: unknown) => {
        setBusy(false);
        setMessage(errorMessage(err));
      },
    );
  };
  const sees = view.data && (
    <dl className="sandbox-view">
      <dt>Its program (read only)</dt>
      <dd>{view.data.programs.length > 0 ? <Folders folders={view.data.programs} /> : "the system's own"}</dd>
      <dt>Shared with it (read and written)</dt>
      <dd>{view.data.roots.length > 0 ? <Folders folders={view.data.roots} /> : "no folder"}</dd>
      {view.data.readOnly.length > 0 && (
        <>
          <dt>Shared with it (read only)</dt>
          <dd>
            <Folders folders={view.data.readOnly} />
          </dd>
        </>
      )}
      {view.data.caches.length > 0 && (
        <>
          <dt>Its package, fetched with the network before it starts (read and written)</dt>
          <dd>
            <Folders folders={view.data.caches} />
          </dd>
        </>
      )}
    </dl>
  );
  return (
    <section className="sandbox-note" aria-labelledby={`sandbox-${server}`}>
      <h3 id={`sandbox-${server}`}>Sandbox</h3>
      {sandbox ? (
        <p>
          Runs in the sandbox, {sandbox.network ? "with the network" : "with no network"}, an empty home and a private
          /tmp. It sees the system and:
        </p>
      ) : (
        <p>
          Runs with all your rights: besides what it does through MCP, it can read your files and use the network. In the
          sandbox it would start again with no network, an empty home and a private /tmp, and see the system and:
        </p>
      )}
      {sees}
      {view.data?.engine && <p className="muted">{builtBy(view.data.engine)}</p>}
      {view.data?.cannot && <p className="error">{view.data.cannot}</p>}
      {!sandbox && (
        <button type="button" className="button" disabled={busy} onClick={sandboxIt}>
          Sandbox this server
        </button>
      )}
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}

/** What builds the sandbox here, in the person's words. */
function builtBy(engine: SandboxEngine): string {
  return engine === "landlock"
    ? "Landlock builds its sandbox here: bubblewrap, which builds a stronger one, cannot run on this machine."
    : "Bubblewrap builds its sandbox.";
}

function Folders({ folders }: { folders: string[] }) {
  return (
    <ul>
      {folders.map((folder) => (
        <li key={folder}>
          <code>{folder}</code>
        </li>
      ))}
    </ul>
  );
}

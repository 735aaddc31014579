import { useState } from "react";
import { commands, type SandboxSetting_Serialize as SandboxSetting } from "../bindings";
import { errorMessage } from "../errors";

const SEES = "the system, its own program and the folders you share with it";

/**
 * Whether a local server runs in the sandbox and what it may reach; one outside it can be
 * put in it here (it starts again), with what it would then see said first.
 */
export function SandboxNote({ server, sandbox }: { server: string; sandbox: SandboxSetting | null }) {
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
  return (
    <section className="sandbox-note" aria-labelledby={`sandbox-${server}`}>
      <h3 id={`sandbox-${server}`}>Sandbox</h3>
      {sandbox ? (
        <p>
          Runs in the sandbox: it sees only {SEES}, {sandbox.network ? "and uses the network" : "and has no network"}. Its
          settings change that.
        </p>
      ) : (
        <>
          <p>
            Runs with all your rights: besides what it does through MCP, it can read your files and use the network. In the
            sandbox it would see only {SEES}, with an empty home and no network, and start again.
          </p>
          <button type="button" className="button" disabled={busy} onClick={sandboxIt}>
            Sandbox this server
          </button>
        </>
      )}
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}

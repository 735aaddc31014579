import { useState } from "react";
import { commands, type SandboxEngine, type SandboxSetting_Serialize as SandboxSetting } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { t as translate, useT } from "../i18n";
import { reasonText } from "./reasons";

/**
 * Whether a local server runs in the sandbox and what it may reach, its folders by name; one
 * outside it can be put in it here (it starts again), told first what it would then see.
 */
export function SandboxNote({ server, sandbox }: { server: string; sandbox: SandboxSetting | null }) {
  const t = useT();
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
      <dt>{t("serverForm.sandboxNote.program")}</dt>
      <dd>{view.data.programs.length > 0 ? <Folders folders={view.data.programs} /> : t("serverForm.sandboxNote.systemsOwn")}</dd>
      <dt>{t("serverForm.sandboxNote.shared")}</dt>
      <dd>{view.data.roots.length > 0 ? <Folders folders={view.data.roots} /> : t("serverForm.sandboxNote.noFolder")}</dd>
      {view.data.readOnly.length > 0 && (
        <>
          <dt>{t("serverForm.sandboxNote.sharedReadOnly")}</dt>
          <dd>
            <Folders folders={view.data.readOnly} />
          </dd>
        </>
      )}
      {view.data.caches.length > 0 && (
        <>
          <dt>{t("serverForm.sandboxNote.package")}</dt>
          <dd>
            <Folders folders={view.data.caches} />
          </dd>
        </>
      )}
    </dl>
  );
  return (
    <section className="sandbox-note" aria-labelledby={`sandbox-${server}`}>
      <h3 id={`sandbox-${server}`}>{t("serverForm.sandboxNote.title")}</h3>
      {sandbox ? (
        <p>{sandbox.network ? t("serverForm.sandboxNote.withNetwork") : t("serverForm.sandboxNote.noNetwork")}</p>
      ) : (
        <p>{t("serverForm.sandboxNote.outside")}</p>
      )}
      {sees}
      {view.data?.engine && <p className="muted">{builtBy(view.data.engine)}</p>}
      {view.data?.cannot && <p className="error">{reasonText(view.data.cannot)}</p>}
      {!sandbox && (
        <button type="button" className="button" disabled={busy} onClick={sandboxIt}>
          {t("serverForm.sandboxNote.sandboxIt")}
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
  return engine === "landlock" ? translate("serverForm.sandboxNote.landlock") : translate("serverForm.sandboxNote.bubblewrap");
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

import { useEffect, useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { FolderList } from "../approvals/FolderList";
import { checkFolder } from "../approvals/checkFolder";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";

/**
 * The folders a running server may see, changed at any time; the server is told. A sandboxed
 * server's shared folders can each be made read only there (it starts again to bind them so).
 */
export function SharedFolders({ server, sandboxed = false }: { server: string; sandboxed?: boolean }) {
  const t = useT();
  const [saved, setSaved] = useState<string[] | null>(null);
  const [folders, setFolders] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const view = useFetched(
    () => (sandboxed ? commands.sandboxView(server) : Promise.resolve(null)),
    ["servers_changed", "config_changed", "status"],
    [server, sandboxed],
  );
  const readOnly = view.data?.readOnly ?? [];
  const setReadOnly = (folder: string, on: boolean) =>
    commands.setFolderReadOnly(server, folder, on).then(
      () => {
        setMessage(null);
        view.refresh();
      },
      (err: unknown) => setMessage(errorMessage(err)),
    );
  useEffect(() => {
    commands.serverRoots(server).then((roots) => {
      setSaved(roots);
      setFolders(roots);
    }, () => setSaved([]));
  }, [server]);
  if (saved === null) return null;
  const changed = folders.join("\n") !== saved.join("\n");
  const save = () =>
    commands.setServerRoots(server, folders).then(
      () => {
        setSaved(folders);
        setMessage(null);
      },
      (err: unknown) => setMessage(errorMessage(err)),
    );
  return (
    <section className="shared-folders" aria-labelledby={`shared-${server}`}>
      <h3 id={`shared-${server}`}>{t("serverForm.shared.title")}</h3>
      <FolderList
        folders={folders}
        onChange={setFolders}
        onBrowse={() => commands.pickFolder()}
        onCheck={checkFolder}
        onChecking={setChecking}
        idPrefix={`shared-${server}`}
        rowExtra={(folder) =>
          sandboxed &&
          saved.includes(folder) && (
            <label className="check read-only">
              <input
                type="checkbox"
                aria-label={t("serverForm.shared.readOnlyLabel", { folder })}
                checked={readOnly.includes(folder)}
                onChange={(e) => void setReadOnly(folder, e.target.checked)}
              />
              {t("serverForm.shared.readOnly")}
            </label>
          )
        }
      />
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <button type="button" className="button primary" disabled={!changed || checking} onClick={() => void save()}>
        {t("serverForm.shared.share", { server })}
      </button>
    </section>
  );
}

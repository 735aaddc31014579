import { useEffect, useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { FolderList } from "../approvals/FolderList";

/** The folders a running server may see, changed at any time; the server is told. */
export function SharedFolders({ server }: { server: string }) {
  const [saved, setSaved] = useState<string[] | null>(null);
  const [folders, setFolders] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
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
      <h3 id={`shared-${server}`}>Shared folders</h3>
      <FolderList
        folders={folders}
        onChange={setFolders}
        onBrowse={() => commands.pickFolder()}
        onCheck={(path) => commands.checkFolder(path)}
        onChecking={setChecking}
        idPrefix={`shared-${server}`}
      />
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <button type="button" className="button primary" disabled={!changed || checking} onClick={() => void save()}>
        Share these folders with {server}
      </button>
    </section>
  );
}

import { useEffect, useState } from "react";
import { commands, type ImportCandidate } from "../../bindings";
import { errorMessage } from "../../errors";
import { ImportDialogContent } from "../../servers/ImportDialogContent";

/** Servers from Claude Desktop, VS Code or Cursor: the files found, or one the person names. */
export function ImportPanel({ onDone }: { onDone: () => void }) {
  const [candidates, setCandidates] = useState<ImportCandidate[]>([]);
  const [customPath, setCustomPath] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    commands.importCandidates().then(setCandidates, (err: unknown) => setMessage(errorMessage(err)));
  }, []);
  const loadCustom = () => {
    // A file named by hand is read the way its name suggests.
    const source = /claude/i.test(customPath) ? "Claude Desktop" : /cursor/i.test(customPath) ? "Cursor" : "VS Code";
    commands.importCandidate(source, customPath).then(
      (found) => setCandidates((list) => [...list.filter((c) => c.path !== found.path), found]),
      (err: unknown) => setMessage(errorMessage(err)),
    );
  };
  const importSelected = (source: string, names: string[]) => {
    const from = candidates.find((c) => c.source === source);
    if (!from) return;
    // Nothing the file reaches beyond its entries is kept until it can be confirmed here.
    commands.importServers({ source, path: from.path, servers: names.map((name) => ({ name, keep: [] })), answers: [] }).then(
      () => onDone(),
      (err: unknown) => setMessage(errorMessage(err)),
    );
  };
  return (
    <>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <ImportDialogContent
        candidates={candidates}
        onImport={importSelected}
        onCancel={onDone}
        customPath={customPath}
        onCustomPath={setCustomPath}
        onLoadCustom={loadCustom}
      />
    </>
  );
}

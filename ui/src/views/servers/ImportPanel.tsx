import { useEffect, useState } from "react";
import { commands, type ImportCandidate, type ImportRequest } from "../../bindings";
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
  const importSelected = (request: ImportRequest) => {
    commands.importServers(request).then(
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

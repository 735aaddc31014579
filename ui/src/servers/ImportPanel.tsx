import { useEffect, useState } from "react";
import { commands, type ImportCandidate, type ImportRequest, type ImportSummary } from "../bindings";
import { errorMessage } from "../errors";
import { ImportDialogContent } from "./ImportDialogContent";
import { ImportSummaryView } from "./ImportSummaryView";

/**
 * Servers from Claude Desktop, VS Code or Cursor: the files found, or one the person names or picks;
 * once imported, what was done.
 */
export function ImportPanel({ onDone }: { onDone: () => void }) {
  const [candidates, setCandidates] = useState<ImportCandidate[]>([]);
  const [customPath, setCustomPath] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  useEffect(() => {
    commands.importCandidates().then(setCandidates, (err: unknown) => setMessage(errorMessage(err)));
  }, []);
  const load = (path: string) => {
    setMessage(null);
    // A file named by the person is read as its content tells.
    commands.importCandidate(null, path).then(
      (found) => setCandidates((list) => [...list.filter((c) => c.path !== found.path), found]),
      (err: unknown) => setMessage(errorMessage(err)),
    );
  };
  const pickFile = () => {
    commands.pickConfigFile().then(
      (path) => {
        if (path === null) return;
        setCustomPath(path);
        load(path);
      },
      (err: unknown) => setMessage(errorMessage(err)),
    );
  };
  const importSelected = (request: ImportRequest) => {
    setMessage(null);
    commands.importServers(request).then(setSummary, (err: unknown) => setMessage(errorMessage(err)));
  };
  if (summary) return <ImportSummaryView summary={summary} onDone={onDone} />;
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
        onLoadCustom={() => load(customPath)}
        onPickFile={pickFile}
      />
    </>
  );
}

import { useId, type FormEvent } from "react";
import type { ImportCandidate, ImportRequest } from "../bindings";
import { ImportCandidateGroup } from "./ImportCandidateGroup";
import "./servers.css";

export interface ImportDialogContentProps {
  candidates: ImportCandidate[];
  onImport(request: ImportRequest): void;
  onCancel(): void;
  customPath: string;
  onCustomPath(p: string): void;
  onLoadCustom(): void;
  /** Opens the system's file picker; the file chosen is loaded. */
  onPickFile?(): void;
}

/** Servers found in other apps' configuration files, to pick and import; the caller supplies the frame. */
export function ImportDialogContent({
  candidates,
  onImport,
  onCancel,
  customPath,
  onCustomPath,
  onLoadCustom,
  onPickFile,
}: ImportDialogContentProps) {
  const id = useId();
  const loadCustom = (e: FormEvent) => {
    e.preventDefault();
    if (customPath.trim() !== "") onLoadCustom();
  };
  return (
    <section className="import" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import servers</h2>
      {candidates.length === 0 ? (
        <p className="muted">No configuration of Claude Desktop, VS Code or Cursor was found. Name a file below.</p>
      ) : (
        candidates.map((candidate) => (
          // A file read again with other servers starts its choice afresh.
          <ImportCandidateGroup
            key={`${candidate.path}\n${candidate.servers.map((s) => s.name).join("\n")}`}
            candidate={candidate}
            onImport={onImport}
          />
        ))
      )}
      <form className="import-custom" onSubmit={loadCustom}>
        <label htmlFor={`${id}-path`}>Another configuration file</label>
        <div className="inline">
          <input id={`${id}-path`} className="mono" value={customPath} spellCheck={false} autoComplete="off"
            placeholder="/path/to/mcp.json" onChange={(e) => onCustomPath(e.target.value)} />
          <button type="submit" disabled={customPath.trim() === ""}>
            Load
          </button>
          {onPickFile && (
            <button type="button" onClick={onPickFile}>
              Choose file…
            </button>
          )}
        </div>
        <p className="hint">Claude Desktop, Cursor and VS Code files are told apart by what they hold.</p>
      </form>
      <div className="form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

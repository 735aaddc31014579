import { useId, useState, type FormEvent } from "react";
import "./servers.css";

export interface ImportCandidate {
  /** The app the file belongs to, e.g. "Claude Desktop". */
  source: string;
  path: string;
  servers: Array<{ name: string; target: string; conflict: boolean }>;
  /** What could not be read from the file, if anything. */
  warnings?: string[];
}

export interface ImportDialogContentProps {
  candidates: ImportCandidate[];
  onImport(source: string, names: string[]): void;
  onCancel(): void;
  customPath: string;
  onCustomPath(p: string): void;
  onLoadCustom(): void;
}

/** Servers found in other apps' configuration files, to pick and import; the caller supplies the frame. */
export function ImportDialogContent({ candidates, onImport, onCancel, customPath, onCustomPath, onLoadCustom }: ImportDialogContentProps) {
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
          <CandidateGroup key={`${candidate.path}\n${candidate.servers.map((s) => s.name).join("\n")}`} candidate={candidate} onImport={onImport} />
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
        </div>
      </form>
      <div className="form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

function CandidateGroup({ candidate, onImport }: { candidate: ImportCandidate; onImport: ImportDialogContentProps["onImport"] }) {
  const id = useId();
  const importable = candidate.servers.filter((s) => !s.conflict).map((s) => s.name);
  // Everything importable starts checked; a name already configured is skipped by the host.
  const [picked, setPicked] = useState(() => new Set(importable));
  const chosen = importable.filter((name) => picked.has(name));
  const toggle = (name: string, on: boolean) =>
    setPicked((set) => {
      const next = new Set(set);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });

  return (
    <fieldset className="import-candidate">
      <legend>{candidate.source}</legend>
      <p className="muted mono">{candidate.path}</p>
      {candidate.warnings?.map((warning, i) => (
        <p key={i} className="warning">
          {warning}
        </p>
      ))}
      {candidate.servers.length === 0 ? (
        <p className="muted">This file configures no servers.</p>
      ) : (
        <ul>
          {candidate.servers.map((server, i) => (
            <li key={server.name}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={!server.conflict && picked.has(server.name)}
                  disabled={server.conflict}
                  aria-describedby={`${id}-${i}`}
                  onChange={(e) => toggle(server.name, e.target.checked)}
                />
                <span className="server-name">{server.name}</span>
              </label>
              <span id={`${id}-${i}`} className="import-target">
                <span className="mono">{server.target}</span>
                {server.conflict && <span className="tag">already configured: skipped</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="primary"
        aria-label={`Import selected from ${candidate.source}`}
        disabled={chosen.length === 0}
        onClick={() => onImport(candidate.source, chosen)}
      >
        Import selected{chosen.length > 0 ? ` (${chosen.length})` : ""}
      </button>
    </fieldset>
  );
}

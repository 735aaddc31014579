import { useId, type FormEvent } from "react";
import type { ImportCandidate, ImportRequest } from "../bindings";
import { ImportCandidateGroup } from "./ImportCandidateGroup";
import { useT } from "../i18n";
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
  const t = useT();
  const id = useId();
  const loadCustom = (e: FormEvent) => {
    e.preventDefault();
    if (customPath.trim() !== "") onLoadCustom();
  };
  return (
    <section className="import" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("serverForm.import.title")}</h2>
      {candidates.length === 0 ? (
        <p className="muted">{t("serverForm.import.noneFound")}</p>
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
        <label htmlFor={`${id}-path`}>{t("serverForm.import.anotherFile")}</label>
        <div className="inline">
          <input id={`${id}-path`} className="mono" value={customPath} spellCheck={false} autoComplete="off"
            placeholder="/path/to/mcp.json" onChange={(e) => onCustomPath(e.target.value)} />
          <button type="submit" disabled={customPath.trim() === ""}>
            {t("serverForm.import.load")}
          </button>
          {onPickFile && (
            <button type="button" onClick={onPickFile}>
              {t("serverForm.import.chooseFile")}
            </button>
          )}
        </div>
        <p className="hint">{t("serverForm.import.fileKinds")}</p>
      </form>
      <div className="form-actions">
        <button type="button" onClick={onCancel}>
          {t("serverForm.import.cancel")}
        </button>
      </div>
    </section>
  );
}

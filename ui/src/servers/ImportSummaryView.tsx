import { useId } from "react";
import type { ImportSummary } from "../bindings";

export interface ImportSummaryViewProps {
  summary: ImportSummary;
  onDone(): void;
}

/** What an import did: each server imported (and under which name), the secrets that went to the keyring, and what was skipped and why. */
export function ImportSummaryView({ summary, onDone }: ImportSummaryViewProps) {
  const id = useId();
  const { imported, skipped } = summary;
  return (
    <section className="import import-summary" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import done</h2>
      <h3 id={`${id}-imported`}>Imported ({imported.length})</h3>
      {imported.length === 0 ? (
        <p className="muted">No server was imported.</p>
      ) : (
        <ul aria-labelledby={`${id}-imported`}>
          {imported.map((server) => (
            <li key={server.name}>
              <span className="server-name">{server.name}</span>
              {server.from !== server.name && <span className="tag">renamed from {server.from}</span>}
              {server.secrets.length > 0 && (
                <span className="hint">
                  {" "}
                  Secrets moved to the OS keyring: <span className="mono">{server.secrets.join(", ")}</span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <>
          <h3 id={`${id}-skipped`}>Skipped ({skipped.length})</h3>
          <ul aria-labelledby={`${id}-skipped`}>
            {skipped.map((server) => (
              <li key={server.name}>
                <span className="server-name">{server.name}</span>: {server.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="form-actions">
        <button type="button" className="primary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

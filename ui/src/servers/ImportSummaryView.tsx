import { useId } from "react";
import type { ImportSummary } from "../bindings";
import { tx, useT } from "../i18n";
import { skippedText } from "./imports";

export interface ImportSummaryViewProps {
  summary: ImportSummary;
  onDone(): void;
}

/** What an import did: each server imported (and under which name), the secrets that went to the keyring, and what was skipped and why. */
export function ImportSummaryView({ summary, onDone }: ImportSummaryViewProps) {
  const t = useT();
  const id = useId();
  const { imported, skipped } = summary;
  return (
    <section className="import import-summary" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("serverForm.summary.title")}</h2>
      <h3 id={`${id}-imported`}>{t("serverForm.summary.imported", { count: imported.length })}</h3>
      {imported.length === 0 ? (
        <p className="muted">{t("serverForm.summary.noneImported")}</p>
      ) : (
        <ul aria-labelledby={`${id}-imported`}>
          {imported.map((server) => (
            <li key={server.name}>
              <span className="server-name">{server.name}</span>
              {server.from !== server.name && <span className="tag">{t("serverForm.summary.renamedFrom", { name: server.from })}</span>}
              {server.secrets.length > 0 && (
                <span className="hint">
                  {" "}
                  {tx("serverForm.summary.secretsMoved", { secrets: <span className="mono">{server.secrets.join(", ")}</span> })}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <>
          <h3 id={`${id}-skipped`}>{t("serverForm.summary.skipped", { count: skipped.length })}</h3>
          <ul aria-labelledby={`${id}-skipped`}>
            {skipped.map((server) => (
              <li key={server.name}>
                {tx("serverForm.summary.skippedServer", { name: <span className="server-name">{server.name}</span>, reason: skippedText(server.reason) })}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="form-actions">
        <button type="button" className="primary" onClick={onDone}>
          {t("serverForm.summary.done")}
        </button>
      </div>
    </section>
  );
}

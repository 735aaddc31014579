import { useState } from "react";
import { base64Size, formatBytes } from "../content/binary";
import { Modal } from "../dialogs/Modal";
import { FullAddress } from "../approvals/UrlElicitationDialog";
import { inspectUrl } from "../approvals/inspectUrl";
import { ServerName } from "../approvals/ServerName";
import type { Downloadable } from "./bridge";
import "../approvals/approvals.css";

/**
 * A view asks to open a web page: the address shown whole with its host set apart and
 * every warning sign, as a server's own request would be; opened only on the person's
 * click (Enter opens it only when nothing looks odd).
 */
export function LinkDialog({ server, url, onAnswer }: { server: string; url: string; onAnswer(open: boolean): void }) {
  const inspection = inspectUrl(url);
  const { host, unicodeHost, warnings, openable } = inspection;
  return (
    <Modal
      title={
        <>
          The app of <ServerName name={server} /> wants to open a web page
        </>
      }
      onCancel={() => onAnswer(false)}
      onPrimary={openable && warnings.length === 0 ? () => onAnswer(true) : undefined}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer(false)}>
            Don't open
          </button>
          <button type="button" className={warnings.length === 0 ? "button primary" : "button danger"} disabled={!openable} onClick={() => onAnswer(true)}>
            Open in browser
          </button>
        </>
      }
    >
      {host !== "" && (
        <p className="url-host-line">
          The page is on <strong className="url-host">{host}</strong>
          {unicodeHost !== host && (
            <>
              {", which reads as "}
              <strong>{unicodeHost}</strong>
            </>
          )}
        </p>
      )}
      <div className="form-field">
        <span className="form-label">Full address</span>
        <code className="url-full" data-testid="url-full">
          <FullAddress inspection={inspection} />
        </code>
      </div>
      {warnings.length > 0 ? (
        <ul className="url-warnings" aria-label="Warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : (
        <p className="approval-note">Nothing in this address looks odd. Open it only if you asked the app to.</p>
      )}
    </Modal>
  );
}

/** A file's name and size as the save dialog will offer it, from what the view gave. */
export function describe(file: Downloadable): { name: string; size: string | null; type: string | null } {
  if (file.type === "resource_link") return { name: file.name || lastPart(file.uri), size: typeof file.size === "number" ? formatBytes(file.size) : null, type: file.mimeType ?? null };
  const r = file.resource;
  const bytes = "text" in r ? new TextEncoder().encode(r.text).length : base64Size(r.blob);
  return { name: lastPart(r.uri), size: formatBytes(bytes), type: r.mimeType ?? null };
}

const lastPart = (uri: string) => uri.split(/[?#]/)[0]?.split("/").filter(Boolean).at(-1) ?? uri;

/**
 * A view asks to save files: each named with its size and type; "Save…" asks where, one
 * system save dialog per file. `onSave` saves one and says whether it was written.
 */
export function DownloadDialog({
  server,
  files,
  onSave,
  onDone,
}: {
  server: string;
  files: Downloadable[];
  onSave(file: Downloadable): Promise<boolean>;
  onDone(saved: boolean): void;
}) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      let all = true;
      for (const file of files) all = (await onSave(file)) && all;
      onDone(all);
    } catch (err) {
      setError(String((err as { message?: unknown })?.message ?? err));
      setSaving(false);
    }
  };
  return (
    <Modal
      title={
        <>
          The app of <ServerName name={server} /> wants to save {files.length === 1 ? "a file" : `${files.length} files`}
        </>
      }
      onCancel={() => onDone(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onDone(false)}>
            Don't save
          </button>
          <button type="button" className="button primary" disabled={saving} onClick={() => void save()}>
            Save…
          </button>
        </>
      }
    >
      <ul className="view-downloads" aria-label="Files">
        {files.map((file, i) => {
          const { name, size, type } = describe(file);
          return (
            <li key={i}>
              <code>{name}</code> <span className="muted">{[type, size].filter(Boolean).join(", ")}</span>
            </li>
          );
        })}
      </ul>
      <p className="approval-note">You choose where each is saved.</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </Modal>
  );
}

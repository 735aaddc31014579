import { useState } from "react";
import type { ViewChange } from "../bindings";
import { formatDateTime } from "../servers/time";
import { base64Size, formatBytes } from "../content/binary";
import { Modal } from "../dialogs/Modal";
import { AddressShown } from "../approvals/UrlElicitationDialog";
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
  const { warnings, openable } = inspection;
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
      <AddressShown inspection={inspection} id="view-link" fine="Nothing in this address looks odd. Open it only if you asked the app to." />
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

/** A policy's directives that one has and the other has not. */
function directives(policy: string): string[] {
  return policy
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean);
}

/**
 * A view that changed since the person last saw it (its page, what it may load, or its
 * server's launch): what changed, and the person's choice to show it or not. Nothing of it
 * runs meanwhile.
 */
export function ViewChanged({ server, change, onShow, onSkip }: { server: string; change: ViewChange; onShow(): void; onSkip(): void }) {
  const { before, after } = change;
  const was = directives(before.policy);
  const now = directives(after.policy);
  const added = now.filter((d) => !was.includes(d));
  const removed = was.filter((d) => !now.includes(d));
  return (
    <section className="view-changed" role="alert" aria-label={`The app of ${server} changed`}>
      <p>
        The app of <strong>{server}</strong> changed since it was shown on {formatDateTime(before.atMs)}. It is not shown until you agree.
      </p>
      <ul>
        {change.serverChanged && <li>Its server is launched otherwise than then.</li>}
        {before.sha256 !== after.sha256 && (
          <li>
            Its page is another: {formatBytes(before.bytes)} then, {formatBytes(after.bytes)} now (SHA-256 <code>{before.sha256.slice(0, 12)}…</code> then,{" "}
            <code>{after.sha256.slice(0, 12)}…</code> now).
          </li>
        )}
        {added.length + removed.length > 0 && (
          <li>
            What it may load changed:
            <ul className="view-policy-change">
              {added.map((d) => (
                <li key={`+${d}`}>
                  <ins>{d}</ins>
                </li>
              ))}
              {removed.map((d) => (
                <li key={`-${d}`}>
                  <del>{d}</del>
                </li>
              ))}
            </ul>
          </li>
        )}
      </ul>
      <div className="view-changed-actions">
        <button type="button" className="button" onClick={onSkip}>
          Don't show
        </button>
        <button type="button" className="button primary" onClick={onShow}>
          Show the changed app
        </button>
      </div>
    </section>
  );
}

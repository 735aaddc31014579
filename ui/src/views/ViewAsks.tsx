import { useState } from "react";
import type { ViewChange } from "../bindings";
import { formatDateTime } from "../servers/time";
import { base64Size, formatBytes } from "../content/binary";
import { Modal } from "../dialogs/Modal";
import { AddressShown } from "../approvals/UrlElicitationDialog";
import { inspectUrl } from "../approvals/inspectUrl";
import { ServerName } from "../approvals/ServerName";
import { tx, useT } from "../i18n";
import type { Downloadable } from "./bridge";
import "../approvals/approvals.css";

/**
 * A view asks to open a web page: the address shown whole with its host set apart and
 * every warning sign, as a server's own request would be; opened only on the person's
 * click (Enter opens it only when nothing looks odd).
 */
export function LinkDialog({ server, url, onAnswer }: { server: string; url: string; onAnswer(open: boolean): void }) {
  const t = useT();
  const inspection = inspectUrl(url);
  const { warnings, openable } = inspection;
  return (
    <Modal
      title={tx("views.link.title", { server: <ServerName name={server} /> })}
      onCancel={() => onAnswer(false)}
      onPrimary={openable && warnings.length === 0 ? () => onAnswer(true) : undefined}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer(false)}>
            {t("views.link.dontOpen")}
          </button>
          <button type="button" className={warnings.length === 0 ? "button primary" : "button danger"} disabled={!openable} onClick={() => onAnswer(true)}>
            {t("views.link.open")}
          </button>
        </>
      }
    >
      <AddressShown inspection={inspection} id="view-link" fine={t("views.link.fine")} />
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
  const t = useT();
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
      title={tx("views.download.title", { server: <ServerName name={server} />, count: files.length })}
      onCancel={() => onDone(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onDone(false)}>
            {t("views.download.dontSave")}
          </button>
          <button type="button" className="button primary" disabled={saving} onClick={() => void save()}>
            {t("views.download.save")}
          </button>
        </>
      }
    >
      <ul className="view-downloads" aria-label={t("views.download.files")}>
        {files.map((file, i) => {
          const { name, size, type } = describe(file);
          return (
            <li key={i}>
              <code>{name}</code> <span className="muted">{type && size ? t("views.download.typeAndSize", { type, size }) : type || size}</span>
            </li>
          );
        })}
      </ul>
      <p className="approval-note">{t("views.download.note")}</p>
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
  const t = useT();
  const { before, after } = change;
  const was = directives(before.policy);
  const now = directives(after.policy);
  const added = now.filter((d) => !was.includes(d));
  const removed = was.filter((d) => !now.includes(d));
  return (
    <section className="view-changed" role="alert" aria-label={t("views.changed.label", { server })}>
      <p>
        {tx("views.changed.intro", { strong: (c) => <strong>{c}</strong>, server, shownAt: formatDateTime(before.atMs) })}
      </p>
      <ul>
        {change.serverChanged && <li>{t("views.changed.server")}</li>}
        {before.sha256 !== after.sha256 && (
          <li>
            {tx("views.changed.page", {
              code: (c) => <code>{c}</code>,
              sizeThen: formatBytes(before.bytes),
              sizeNow: formatBytes(after.bytes),
              hashThen: before.sha256.slice(0, 12),
              hashNow: after.sha256.slice(0, 12),
            })}
          </li>
        )}
        {added.length + removed.length > 0 && (
          <li>
            {t("views.changed.policy")}
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
          {t("views.changed.dontShow")}
        </button>
        <button type="button" className="button primary" onClick={onShow}>
          {t("views.changed.show")}
        </button>
      </div>
    </section>
  );
}

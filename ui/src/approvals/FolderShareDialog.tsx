import { useState, type ReactNode } from "react";
import { Modal } from "../dialogs/Modal";
import { useT } from "../i18n";
import { FolderList } from "./FolderList";
import { useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { During } from "./During";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface FolderShareDialogProps {
  request: PendingBase;
  title: ReactNode;
  /** What sharing means here: who would read the folders. */
  note: ReactNode;
  /** The folders listed at first. */
  initial: string[];
  /** What the dialog shows, for its activation guard (see `contentKey`). */
  content: string;
  /** Unique on the page: names the path field. */
  idPrefix: string;
  /** The native folder picker; null when the person closed it. */
  onBrowse(): Promise<string | null>;
  /** Whether a folder can be shared: null when it can, else why not. */
  onCheck?: ((path: string) => Promise<string | null>) | undefined;
  /** The folders to share; an empty list shares nothing. */
  onAnswer(folders: string[]): void;
}

/**
 * A request's dialog where the person keeps, adds or removes the folders to share, then
 * shares them or nothing: a server asking for folders, an agent offering its own.
 */
export function FolderShareDialog({
  request,
  title,
  note,
  initial,
  content,
  idPrefix,
  onBrowse,
  onCheck,
  onAnswer,
}: FolderShareDialogProps) {
  const t = useT();
  const [folders, setFolders] = useState(initial);
  // Sharing waits while a folder just added is being checked: it would be left out.
  const [checking, setChecking] = useState(false);
  const share = checking ? undefined : () => onAnswer(folders);
  const guard = useActivationGuard(content);
  return (
    <Modal
      title={title}
      subtitle={
        <>
          <During during={request.during} />
          <Countdown deadlineMs={request.deadlineMs} outcome="shares nothing" />
        </>
      }
      onCancel={() => onAnswer([])}
      onPrimary={guard.primary(share)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer([])}>
            {t("requests.folders.shareNothing")}
          </button>
          <button type="button" className="button primary" {...guard.accepting(checking)} onClick={share}>
            {t("requests.folders.share")}
          </button>
        </>
      }
    >
      <p className="approval-note">{note}</p>
      <FolderList
        folders={folders}
        onChange={setFolders}
        onBrowse={onBrowse}
        {...(onCheck ? { onCheck } : {})}
        onChecking={setChecking}
        idPrefix={idPrefix}
      />
    </Modal>
  );
}

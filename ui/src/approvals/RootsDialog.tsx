import { useMemo, useState } from "react";
import { Modal } from "../dialogs/Modal";
import { FolderList } from "./FolderList";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { ServerName } from "./ServerName";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface RootsDialogProps {
  request: PendingBase;
  /** The folders already shared with this server. */
  initial: string[];
  /** The native folder picker; null when the person closed it. */
  onBrowse(): Promise<string | null>;
  /** Whether a folder can be shared: null when it can, else why not. */
  onCheck?(path: string): Promise<string | null>;
  /** The folders to share; an empty list shares nothing. */
  onAnswer(folders: string[]): void;
}

/** A server asks which folders it may see: the person picks them. */
export function RootsDialog({ request, initial, onBrowse, onCheck, onAnswer }: RootsDialogProps) {
  const [folders, setFolders] = useState(initial);
  // Sharing waits while a folder just added is being checked: it would be left out.
  const [checking, setChecking] = useState(false);
  const share = checking ? undefined : () => onAnswer(folders);
  const guard = useActivationGuard(
    useMemo(() => contentKey(request.id, request.server, initial), [request.id, request.server, initial]),
  );
  return (
    <Modal
      title={
        <>
          <ServerName name={request.server} /> wants to see your folders
        </>
      }
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="shares nothing" />}
      onCancel={() => onAnswer([])}
      onPrimary={guard.primary(share)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer([])}>
            Share nothing
          </button>
          <button type="button" className="button primary" {...guard.accepting(checking)} onClick={share}>
            Share these folders
          </button>
        </>
      }
    >
      <p className="approval-note">
        The server may read what these folders hold, and whatever it is allowed to do with files there. Share only what
        it needs.
      </p>
      <FolderList
        folders={folders}
        onChange={setFolders}
        onBrowse={onBrowse}
        {...(onCheck ? { onCheck } : {})}
        onChecking={setChecking}
        idPrefix={`roots-${request.id}`}
      />
    </Modal>
  );
}

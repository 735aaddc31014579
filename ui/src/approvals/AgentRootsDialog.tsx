import { useMemo, useState } from "react";
import { Modal } from "../dialogs/Modal";
import { FolderList } from "./FolderList";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface AgentRootsDialogProps {
  /** `server` is the agent that offers its folders. */
  request: PendingBase & {
    /** The folders the agent works in, as it listed them. */
    folders: string[];
    /** The servers the agent uses: those that would see the folders kept. */
    servers: string[];
  };
  /** The native folder picker; null when the person closed it. */
  onBrowse(): Promise<string | null>;
  /** Whether a folder can be shared: null when it can, else why not. */
  onCheck?(path: string): Promise<string | null>;
  /** The folders the servers may see; an empty list shares nothing. */
  onAnswer(folders: string[]): void;
}

/**
 * An agent offers the folders it works in to the servers it uses: the person keeps those the
 * servers may see (the offer is only a suggestion: nothing is shared before they agree).
 */
export function AgentRootsDialog({ request, onBrowse, onCheck, onAnswer }: AgentRootsDialogProps) {
  const [folders, setFolders] = useState(request.folders);
  const [checking, setChecking] = useState(false);
  const share = checking ? undefined : () => onAnswer(folders);
  const guard = useActivationGuard(
    useMemo(
      () => contentKey(request.id, request.server, [...request.folders, ...request.servers]),
      [request.id, request.server, request.folders, request.servers],
    ),
  );
  return (
    <Modal
      title={<>{request.server} offers these folders: expose them to its servers?</>}
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
        Offered by {request.server}, the agent: the servers it uses ({request.servers.join(", ")}) may read what the
        folders kept here hold. Remove any they do not need.
      </p>
      <FolderList
        folders={folders}
        onChange={setFolders}
        onBrowse={onBrowse}
        {...(onCheck ? { onCheck } : {})}
        onChecking={setChecking}
        idPrefix={`agent-roots-${request.id}`}
      />
    </Modal>
  );
}

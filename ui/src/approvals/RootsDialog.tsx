import { useMemo } from "react";
import { FolderShareDialog } from "./FolderShareDialog";
import { contentKey } from "./activationGuard";
import { ServerName } from "./ServerName";
import type { PendingBase } from "./types";

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
  const content = useMemo(() => contentKey(request.id, request.server, initial), [request.id, request.server, initial]);
  return (
    <FolderShareDialog
      request={request}
      title={
        <>
          <ServerName name={request.server} /> wants to see your folders
        </>
      }
      note={
        <>
          The server may read what these folders hold, and whatever it is allowed to do with files there. Share only
          what it needs.
        </>
      }
      initial={initial}
      content={content}
      idPrefix={`roots-${request.id}`}
      onBrowse={onBrowse}
      onCheck={onCheck}
      onAnswer={onAnswer}
    />
  );
}

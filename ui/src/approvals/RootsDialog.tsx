import { useMemo } from "react";
import { tx, useT } from "../i18n";
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
  const t = useT();
  const content = useMemo(() => contentKey(request.id, request.server, initial), [request.id, request.server, initial]);
  return (
    <FolderShareDialog
      request={request}
      title={tx("requests.roots.title", { server: <ServerName name={request.server} /> })}
      note={t("requests.roots.note")}
      initial={initial}
      content={content}
      idPrefix={`roots-${request.id}`}
      onBrowse={onBrowse}
      onCheck={onCheck}
      onAnswer={onAnswer}
    />
  );
}

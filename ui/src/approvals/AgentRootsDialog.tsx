import { useMemo } from "react";
import { useT } from "../i18n";
import { FolderShareDialog } from "./FolderShareDialog";
import { contentKey } from "./activationGuard";
import { listed } from "./inspectUrl";
import type { PendingBase } from "./types";

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
  const t = useT();
  const content = useMemo(
    () => contentKey(request.id, request.server, [...request.folders, ...request.servers]),
    [request.id, request.server, request.folders, request.servers],
  );
  return (
    <FolderShareDialog
      request={request}
      title={t("requests.agentRoots.title", { agent: request.server })}
      note={t("requests.agentRoots.note", { agent: request.server, servers: listed(request.servers) })}
      initial={request.folders}
      content={content}
      idPrefix={`agent-roots-${request.id}`}
      onBrowse={onBrowse}
      onCheck={onCheck}
      onAnswer={onAnswer}
    />
  );
}

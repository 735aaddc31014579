import { useState, type KeyboardEvent } from "react";
import { Modal } from "../dialogs/Modal";
import { errorMessage } from "../errors";
import { LabelledField, errorAria } from "../forms/LabelledField";
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
  /** The folders to share; an empty list shares nothing. */
  onAnswer(folders: string[]): void;
}

/** "/home/ada", "C:\Users\ada" or "\\server\share". */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** A server asks which folders it may see: the person picks them. */
export function RootsDialog({ request, initial, onBrowse, onAnswer }: RootsDialogProps) {
  const [folders, setFolders] = useState(initial);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const inputId = `roots-${request.id}-path`;

  /** Adds a folder, or says why not; returns whether it was added. */
  const add = (path: string): boolean => {
    const folder = path.trim();
    if (folder === "") setError("Enter a folder path");
    else if (!isAbsolutePath(folder)) setError("Enter an absolute path, such as /home/you/project");
    else if (folders.includes(folder)) setError("This folder is already in the list");
    else {
      setFolders([...folders, folder]);
      setError(null);
      return true;
    }
    return false;
  };
  const addTyped = () => {
    if (add(typed)) setTyped("");
  };
  const browse = async () => {
    setBrowsing(true);
    try {
      const picked = await onBrowse();
      if (picked !== null) add(picked);
    } catch (err) {
      setError(`The folder picker failed: ${errorMessage(err)}`);
    } finally {
      setBrowsing(false);
    }
  };
  // Enter in the path field adds the folder; it must not share the list yet.
  const onPathKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      addTyped();
    }
  };

  return (
    <Modal
      title={
        <>
          <ServerName name={request.server} /> wants to see your folders
        </>
      }
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="shares nothing" />}
      onCancel={() => onAnswer([])}
      onPrimary={() => onAnswer(folders)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer([])}>
            Share nothing
          </button>
          <button type="button" className="button primary" onClick={() => onAnswer(folders)}>
            Share these folders
          </button>
        </>
      }
    >
      <p className="approval-note">
        The server may read what these folders hold, and whatever it is allowed to do with files there. Share only what
        it needs.
      </p>
      {folders.length === 0 ? (
        <p className="muted">No folder is shared.</p>
      ) : (
        <ul className="folder-list" aria-label="Folders to share">
          {folders.map((folder) => (
            <li key={folder}>
              <code>{folder}</code>
              <button
                type="button"
                className="button"
                aria-label={`Remove ${folder}`}
                onClick={() => setFolders(folders.filter((f) => f !== folder))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="folder-add">
        <LabelledField id={inputId} label="Folder path" error={error} announce>
          <input
            id={inputId}
            className="form-input"
            value={typed}
            placeholder="/home/you/project"
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={onPathKey}
            {...errorAria(inputId, error)}
          />
        </LabelledField>
        <button type="button" className="button" onClick={addTyped}>
          Add
        </button>
        <button type="button" className="button" onClick={() => void browse()} disabled={browsing}>
          Browse…
        </button>
      </div>
    </Modal>
  );
}

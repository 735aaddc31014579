import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { errorMessage } from "../errors";
import { LabelledField, errorAria } from "../forms/LabelledField";
import { useT, type MessageId } from "../i18n";
import "./approvals.css";

export interface FolderListProps {
  folders: string[];
  onChange(folders: string[]): void;
  /** The native folder picker; null when the person closed it. */
  onBrowse(): Promise<string | null>;
  /** Unique on the page: names the path field. */
  idPrefix: string;
  /**
   * Asks whether a folder can be shared (it exists, it is a folder): null when it can,
   * else why not. Without it, any absolute path is taken.
   */
  onCheck?(path: string): Promise<string | null>;
  /** Told whether a folder is being checked: what is listed may still grow. */
  onChecking?(checking: boolean): void;
  /** What a listed folder's row shows beside its Remove button. */
  rowExtra?(folder: string): ReactNode;
}

/** "/home/ada", "C:\Users\ada" or "\\server\share". */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** Why a folder was not added: a message and its values, said in the language of the moment. */
interface Refusal {
  id: MessageId;
  values?: Record<string, string>;
}

/** Folders to share with a server: typed as paths or picked, each removable. */
export function FolderList({ folders, onChange, onBrowse, idPrefix, onCheck, onChecking, rowExtra }: FolderListProps) {
  const t = useT();
  const inputId = `${idPrefix}-path`;
  const [typed, setTyped] = useState("");
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const error = refusal && t(refusal.id, refusal.values);
  const [browsing, setBrowsing] = useState(false);
  // Told at once, in the same event as the click or key that started a check: a Share
  // pressed right after Add must already find itself waiting.
  const checks = useRef(0);
  const setChecking = (change: 1 | -1) => {
    checks.current += change;
    if (checks.current === (change === 1 ? 1 : 0)) onChecking?.(checks.current > 0);
  };

  /** Adds a folder, or says why not; resolves with whether it was added. */
  const add = async (path: string): Promise<boolean> => {
    const folder = path.trim();
    if (folder === "") setRefusal({ id: "requests.folders.error.empty" });
    else if (!isAbsolutePath(folder)) setRefusal({ id: "requests.folders.error.relative" });
    else if (folders.includes(folder)) setRefusal({ id: "requests.folders.error.listed" });
    else {
      let refused: string | null = null;
      if (onCheck) {
        setChecking(1);
        try {
          refused = await onCheck(folder);
        } catch (err) {
          refused = errorMessage(err);
        } finally {
          setChecking(-1);
        }
      }
      if (refused !== null) {
        setRefusal({ id: "requests.folders.error.refused", values: { reason: refused } });
        return false;
      }
      onChange([...folders, folder]);
      setRefusal(null);
      return true;
    }
    return false;
  };
  const addTyped = async () => {
    const asked = typed;
    // Empties the field once added, unless the person typed on while it was checked.
    if (await add(asked)) setTyped((now) => (now === asked ? "" : now));
  };
  const browse = async () => {
    setBrowsing(true);
    try {
      const picked = await onBrowse();
      if (picked !== null) await add(picked);
    } catch (err) {
      setRefusal({ id: "requests.folders.error.picker", values: { message: errorMessage(err) } });
    } finally {
      setBrowsing(false);
    }
  };
  // Enter in the path field adds the folder; it must not share the list yet.
  const onPathKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      void addTyped();
    }
  };

  return (
    <>
      {folders.length === 0 ? (
          <p className="muted">{t("requests.folders.empty")}</p>
        ) : (
          <ul className="folder-list" aria-label={t("requests.folders.list")}>
            {folders.map((folder) => (
              <li key={folder}>
                <code>{folder}</code>
                {rowExtra?.(folder)}
                <button
                  type="button"
                  className="button"
                  aria-label={t("requests.folders.removeLabel", { folder })}
                  onClick={() => onChange(folders.filter((f) => f !== folder))}
                >
                  {t("requests.folders.remove")}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="folder-add">
          <LabelledField id={inputId} label={t("requests.folders.path")} error={error} announce>
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
          <button type="button" className="button" onClick={() => void addTyped()}>
            {t("requests.folders.add")}
          </button>
          <button type="button" className="button" onClick={() => void browse()} disabled={browsing}>
            {t("requests.folders.browse")}
          </button>
        </div>
    </>
  );
}

import type { ProgressItem_Serialize as ProgressItem } from "../bindings";
import { format, t as translate, useT } from "../i18n";
import { formatElapsed, useNow } from "../servers/time";
import { readNamed } from "../approvals/readSubject";
import "./activity.css";

export interface ProgressListProps {
  items: ProgressItem[];
  onCancel(token: string): void;
}

/** Requests under way, how far along each one says it is, and a way to stop it. */
export function ProgressList({ items, onCancel }: ProgressListProps) {
  const t = useT();
  const now = useNow(items.length > 0);
  return (
    <ul className="progress-list">
      {items.map((item) => {
        const label = labelOf(item);
        return (
          <li key={item.token} className="progress-item">
            <div className="progress-head">
              <strong className="progress-label">{label}</strong>
              <span className="muted">{item.server}</span>
              <span className="muted progress-elapsed">{formatElapsed(now - item.startedMs)}</span>
              <button type="button" aria-label={t("activity.progress.cancelLabel", { label })} onClick={() => onCancel(item.token)}>
                {t("activity.progress.cancel")}
              </button>
            </div>
            {/* Without a total the server cannot say how far along it is: the bar is indeterminate. */}
            {item.total !== null && item.total > 0 ? (
              <progress aria-label={t("activity.progress.of", { label })} value={Math.min(item.progress, item.total)} max={item.total} />
            ) : (
              <progress aria-label={t("activity.progress.of", { label })} />
            )}
            <p className="progress-text">
              {/* Nothing counted yet but something said (a request waiting for the person): that alone. */}
              {item.message && item.progress <= 0 && !(item.total !== null && item.total > 0) ? (
                <span>{item.message}</span>
              ) : (
                <>
                  <span className="muted">{amount(item)}</span>
                  {item.message && <span> · {item.message}</span>}
                </>
              )}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** How far along, in the window's language; called while rendering. */
function amount({ progress, total }: ProgressItem): string {
  if (total !== null && total > 0) return translate("activity.progress.amount", { progress: trim(progress), total: trim(total) });
  return progress > 0 ? translate("activity.progress.soFar", { progress: trim(progress) }) : translate("activity.progress.waiting");
}

/** To two decimals at most, written as the window's language writes numbers. */
const trim = (n: number) => format.number(Math.round(n * 100) / 100);

/** What is under way: the tool's title or name, or the read, said in the window's language
 *  and begun as a label is ("Read demo://readme"). */
function labelOf(item: ProgressItem): string {
  if (!item.read) return item.label;
  const named = readNamed(item.read);
  return named.charAt(0).toLocaleUpperCase() + named.slice(1);
}

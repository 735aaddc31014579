import type { ReactNode } from "react";
import { format, tx, useT } from "../i18n";
import "./explorer.css";

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** A call under way: a bar that fills when the server says how far it is, and its message. */
export function CallProgress({ progress }: { progress: Progress | null | undefined }) {
  const t = useT();
  const total = progress?.total;
  const known = progress != null && typeof total === "number" && total > 0;
  const status = progress?.message ?? t("explorer.progress.working");
  const muted = (chunks: ReactNode[]) => <span className="muted">{chunks}</span>;
  const said =
    progress == null
      ? status
      : known
        ? tx("explorer.progress.amount", { status, muted, progress: format.number(progress.progress), total: format.number(total) })
        : tx("explorer.progress.soFar", { status, muted, progress: format.number(progress.progress) });
  return (
    <div className="call-progress" role="status">
      <progress aria-label={t("explorer.progress.label")} {...(known ? { value: progress.progress, max: total } : {})} />
      <span>{said}</span>
    </div>
  );
}

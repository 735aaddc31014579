import "./explorer.css";

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** A call under way: a bar that fills when the server says how far it is, and its message. */
export function CallProgress({ progress }: { progress: Progress | null | undefined }) {
  const total = progress?.total;
  const known = progress != null && typeof total === "number" && total > 0;
  const counted = progress == null ? "" : known ? `${progress.progress} of ${total}` : String(progress.progress);
  return (
    <div className="call-progress" role="status">
      <progress aria-label="Progress" {...(known ? { value: progress.progress, max: total } : {})} />
      <span>
        {progress?.message ?? "Working…"}
        {counted && <span className="muted"> ({counted})</span>}
      </span>
    </div>
  );
}

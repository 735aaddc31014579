import "./explorer.css";

/** A request that failed (the message comes from the host or the server). */
export function ErrorNote({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p className="detail-error" role="alert">
      {error}
    </p>
  );
}

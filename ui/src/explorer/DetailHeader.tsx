import "./explorer.css";

interface Props {
  /** What the thing is: "Tool", "Resource", ... */
  kind: string;
  /** The name to show (a title when the server gave one). */
  title: string;
  /** The programmatic name, shown when it differs from the title. */
  name: string;
  server: string;
  headingId: string;
}

/** The heading of an item's detail: what it is, what it is called and whose it is. */
export function DetailHeader({ kind, title, name, server, headingId }: Props) {
  return (
    <header className="detail-header">
      <p className="detail-kind">
        {kind} of <span className="detail-server">{server}</span>
      </p>
      <h2 id={headingId}>{title}</h2>
      {name !== title && <code className="detail-name">{name}</code>}
    </header>
  );
}

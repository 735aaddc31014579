import "./approvals.css";

/** The asking server's name, set apart from the text around it. */
export function ServerName({ name }: { name: string }) {
  return <strong className="approval-server">{name}</strong>;
}

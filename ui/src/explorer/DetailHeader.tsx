import { tx, useT, type MessageId } from "../i18n";
import type { Kind } from "./catalog";
import "./explorer.css";

/** "Tool of demo", and so on: what the thing is and whose, one sentence per kind. */
const KIND_OF: Record<Kind, MessageId> = {
  tool: "explorer.detail.toolOf",
  resource: "explorer.detail.resourceOf",
  template: "explorer.detail.templateOf",
  prompt: "explorer.detail.promptOf",
  skill: "explorer.detail.skillOf",
};

interface Props {
  /** What the thing is: a tool, a resource, ... */
  kind: Kind;
  /** The name to show (a title when the server gave one). */
  title: string;
  /** The programmatic name, shown when it differs from the title. */
  name: string;
  server: string;
  headingId: string;
}

/** The heading of an item's detail: what it is, what it is called and whose it is. */
export function DetailHeader({ kind, title, name, server, headingId }: Props) {
  useT();
  return (
    <header className="detail-header">
      <p className="detail-kind">
        {tx(KIND_OF[kind], { server, span: (chunks) => <span className="detail-server">{chunks}</span> })}
      </p>
      <h2 id={headingId}>{title}</h2>
      {name !== title && <code className="detail-name">{name}</code>}
    </header>
  );
}

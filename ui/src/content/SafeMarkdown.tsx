import { useMemo, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import "./content.css";

interface Props {
  text: string;
  /** Called with a link's URL when the person activates it; without it links are plain text. */
  onOpenLink?: ((url: string) => void) | undefined;
}

/**
 * Markdown from a server, rendered so that nothing in it acts on its own: raw HTML stays text,
 * links never navigate the app (they show their URL, and open only through `onOpenLink`), and
 * images are never fetched (their alt text stands in).
 */
export function SafeMarkdown({ text, onOpenLink }: Props) {
  const components = useMemo<Components>(
    () => ({
      a: ({ href, children }) => <MarkdownLink href={href} onOpenLink={onOpenLink}>{children}</MarkdownLink>,
      img: ({ alt }) => <span className="md-image">[Image: {alt || "no description"}]</span>,
    }),
    [onOpenLink],
  );
  return (
    <div className="md">
      <Markdown components={components}>{text}</Markdown>
    </div>
  );
}

function MarkdownLink({
  href,
  onOpenLink,
  children,
}: {
  href: string | undefined;
  onOpenLink: ((url: string) => void) | undefined;
  children: ReactNode;
}) {
  // react-markdown empties unsafe URLs (javascript: and the like): then only the text remains.
  if (!href) return <span>{children}</span>;
  const label = onOpenLink ? (
    <button type="button" className="md-link" onClick={() => onOpenLink(href)}>
      {children}
    </button>
  ) : (
    <span className="md-link-text">{children}</span>
  );
  // An autolink's text already is its URL; anything else shows where it leads.
  const showsUrl = typeof children === "string" && children === href;
  return (
    <>
      {label}
      {!showsUrl && <span className="md-link-url"> ({href})</span>}
    </>
  );
}

import { useMemo, useRef, useState, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import rehypeKatex from "rehype-katex";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import "katex/dist/katex.min.css";
import { useT } from "../i18n";
import "./content.css";

/*
 * Why these: `remark-gfm` reads GitHub's tables, task lists and strikethrough, as models and
 * servers write them; `remark-math` with `rehype-katex` typesets `$$…$$` (KaTeX
 * builds its HTML itself, and with `trust` off it follows no link and runs nothing);
 * `rehype-highlight` colours code blocks that name their language with highlight.js's
 * grammars, as classes the design system styles.
 */
// `$5 and $10` stays text: math takes `$$…$$` (inline or on lines of its own).
const REMARK = [remarkGfm, [remarkMath, { singleDollarTextMath: false }]] as NonNullable<
  Parameters<typeof Markdown>[0]["remarkPlugins"]
>;
const REHYPE = [
  [rehypeKatex, { throwOnError: false, strict: "ignore", trust: false }],
  [rehypeHighlight, { detect: false }],
] as NonNullable<Parameters<typeof Markdown>[0]["rehypePlugins"]>;

interface Props {
  text: string;
  /** Called with a link's URL when the person activates it; without it links are plain text. */
  onOpenLink?: ((url: string) => void) | undefined;
}

/**
 * Markdown from a server or a model, rendered so that nothing in it acts on its own: raw HTML
 * stays text, links never navigate the app (they show their URL, and open only through
 * `onOpenLink`), and images are never fetched (their alt text stands in). Tables, math and
 * highlighted code blocks (each with a copy button) are shown as such.
 */
export function SafeMarkdown({ text, onOpenLink }: Props) {
  const components = useMemo<Components>(
    () => ({
      a: ({ href, children }) => <MarkdownLink href={href} onOpenLink={onOpenLink}>{children}</MarkdownLink>,
      img: ({ alt }) => <MarkdownImage alt={alt} />,
      pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
      table: ({ children }) => (
        <div className="md-table">
          <table>{children}</table>
        </div>
      ),
    }),
    [onOpenLink],
  );
  return (
    <div className="md">
      <Markdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={components}>
        {text}
      </Markdown>
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
  const t = useT();
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
      {!showsUrl && <span className="md-link-url">{t("content.markdown.linkUrl", { url: href })}</span>}
    </>
  );
}

/** An image, never fetched: its alt text stands in. */
function MarkdownImage({ alt }: { alt: string | undefined }) {
  const t = useT();
  return (
    <span className="md-image">{alt ? t("content.markdown.image", { alt }) : t("content.markdown.imageNoAlt")}</span>
  );
}

/** A code block, with a button that copies its text. */
function CodeBlock({ children }: { children: ReactNode }) {
  const t = useT();
  const code = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(code.current?.textContent ?? "").then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  return (
    <div className="md-code">
      <pre ref={code}>{children}</pre>
      <button
        type="button"
        className="small md-copy"
        aria-label={t("content.markdown.copyLabel")}
        onClick={() => void copy()}
      >
        {copied === "yes"
          ? t("content.markdown.copied")
          : copied === "failed"
            ? t("content.markdown.copyFailed")
            : t("content.markdown.copy")}
      </button>
    </div>
  );
}

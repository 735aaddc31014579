import Markdown, { type Components } from "react-markdown";
import { t, useLocale } from "../i18n";

// Links and images from a server never act on their own: each shows as text with its full
// address, so the person sees where it points before going anywhere.
const components: Components = {
  a: ({ href, children }) => (
    <span className="inert-link">
      {children}
      {href && <span className="inert-url"> ({href})</span>}
    </span>
  ),
  img: ({ src, alt }) => (
    <span className="inert-link">
      {alt ? t("servers.markdown.imageAlt", { alt }) : t("servers.markdown.image")}
      {typeof src === "string" && src !== "" && <span className="inert-url"> ({src})</span>}
    </span>
  ),
};

// Nothing is made live, so the URL is shown as the server wrote it (even javascript: ones).
const keepUrl = (url: string) => url;

/** Markdown written by a server: formatting yes; raw HTML shows as text, links stay inert. */
export function InertMarkdown({ children }: { children: string }) {
  // Its images are named in the window's language: it re-renders when that changes.
  useLocale();
  return (
    <div className="markdown">
      <Markdown components={components} urlTransform={keepUrl}>
        {children}
      </Markdown>
    </div>
  );
}

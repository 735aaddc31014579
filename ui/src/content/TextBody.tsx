import { useState } from "react";
import { useT } from "../i18n";
import { looksLikeMarkdown } from "./markdown";
import { SafeMarkdown } from "./SafeMarkdown";
import "./content.css";

interface Props {
  text: string;
  /** Whether to offer the markdown view; guessed from the text when not given. */
  markdown?: boolean | undefined;
  onOpenLink?: ((url: string) => void) | undefined;
}

/** Text exactly as sent (whitespace kept), with a switch to a formatted view when it looks like markdown. */
export function TextBody({ text, markdown, onOpenLink }: Props) {
  const t = useT();
  const [formatted, setFormatted] = useState(false);
  const offerMarkdown = markdown ?? looksLikeMarkdown(text);
  return (
    <div className="text-body">
      {offerMarkdown && (
        <button
          type="button"
          className="text-body-toggle"
          aria-pressed={formatted}
          onClick={() => setFormatted(!formatted)}
        >
          {t("content.text.viewAsMarkdown")}
        </button>
      )}
      {offerMarkdown && formatted ? (
        <SafeMarkdown text={text} onOpenLink={onOpenLink} />
      ) : (
        <pre className="content-text">{text}</pre>
      )}
    </div>
  );
}

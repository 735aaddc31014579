import {
  base64Size,
  dataUrl,
  decodeBase64Text,
  formatBytes,
  isPreviewableImage,
  isValidBase64,
  normalizeMime,
} from "./binary";
import { useT } from "../i18n";
import "./content.css";

interface Props {
  /** base64 payload */
  data: string;
  mimeType?: string | undefined;
}

/**
 * A base64 payload shown the way its type allows: safe image formats as pictures, audio with a
 * player, SVG as its source (it may hold scripts, so it is never drawn), anything else by size.
 */
export function BinaryBody({ data, mimeType }: Props) {
  const t = useT();
  const mime = normalizeMime(mimeType);
  const kind = mime ?? mimeType ?? t("content.binary.unknownType");
  if (!isValidBase64(data)) {
    return <p className="content-meta">{t("content.binary.notBase64", { kind })}</p>;
  }
  const size = formatBytes(base64Size(data));
  const url = dataUrl(mime, data);
  if (url && isPreviewableImage(mime)) {
    return (
      <figure className="content-figure">
        <img className="content-image" src={url} alt={t("content.binary.image", { kind, size })} />
        <figcaption className="content-meta">{t("content.binary.caption", { kind, size })}</figcaption>
      </figure>
    );
  }
  if (url && mime?.startsWith("audio/")) {
    return (
      <figure className="content-figure">
        <audio controls src={url} aria-label={t("content.binary.audio", { kind, size })} />
        <figcaption className="content-meta">{t("content.binary.caption", { kind, size })}</figcaption>
      </figure>
    );
  }
  if (mime === "image/svg+xml") {
    return (
      <div>
        <p className="content-meta">{t("content.binary.svg", { size })}</p>
        <details className="content-disclosure">
          <summary>{t("content.binary.svgSource")}</summary>
          <pre className="content-text">{decodeBase64Text(data)}</pre>
        </details>
      </div>
    );
  }
  return (
    <p className="content-meta">{t("content.binary.other", { kind, size })}</p>
  );
}

import {
  base64Size,
  dataUrl,
  decodeBase64Text,
  formatBytes,
  isPreviewableImage,
  isValidBase64,
  normalizeMime,
} from "./binary";
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
  const mime = normalizeMime(mimeType);
  const kind = mime ?? mimeType ?? "unknown type";
  if (!isValidBase64(data)) {
    return <p className="content-meta">{kind}: the data is not valid base64, so it is not shown.</p>;
  }
  const size = formatBytes(base64Size(data));
  const url = dataUrl(mime, data);
  if (url && isPreviewableImage(mime)) {
    return (
      <figure className="content-figure">
        <img className="content-image" src={url} alt={`Image (${kind}, ${size})`} />
        <figcaption className="content-meta">
          {kind}, {size}
        </figcaption>
      </figure>
    );
  }
  if (url && mime?.startsWith("audio/")) {
    return (
      <figure className="content-figure">
        <audio controls src={url} aria-label={`Audio (${kind}, ${size})`} />
        <figcaption className="content-meta">
          {kind}, {size}
        </figcaption>
      </figure>
    );
  }
  if (mime === "image/svg+xml") {
    return (
      <div>
        <p className="content-meta">SVG image, {size}: not drawn, since SVG can carry scripts.</p>
        <details className="content-disclosure">
          <summary>SVG source</summary>
          <pre className="content-text">{decodeBase64Text(data)}</pre>
        </details>
      </div>
    );
  }
  return (
    <p className="content-meta">
      Binary data, {kind}, {size}
    </p>
  );
}

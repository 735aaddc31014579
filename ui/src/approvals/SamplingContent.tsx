import type { ReactNode } from "react";
import type { SamplingMessage, SamplingMessageContentBlock } from "../mcp/schema";
import { LabelledField } from "../forms/LabelledField";
import { format, tx, useT } from "../i18n";
import "./approvals.css";

/** A message's content as a list, whether the server sent one block or several. */
export function blocksOf(message: SamplingMessage): SamplingMessageContentBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/** A copy of the messages with one text block replaced. */
export function withText(messages: SamplingMessage[], at: number, block: number, text: string): SamplingMessage[] {
  return messages.map((message, i) => {
    if (i !== at) return message;
    const blocks = blocksOf(message).map((b, j) => (j === block && b.type === "text" ? { ...b, text } : b));
    return { ...message, content: Array.isArray(message.content) ? blocks : (blocks[0] ?? message.content) };
  });
}

const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

/** A data: URL for media, only for a well-formed type and base64 text: nothing else is put in a URL. */
function dataUrl(kind: "image" | "audio", mimeType: string, data: string): string | null {
  const typeOk = new RegExp(`^${kind}/[\\w.+-]+$`).test(mimeType);
  return typeOk && BASE64.test(data) ? `data:${mimeType};base64,${data.replace(/\s/g, "")}` : null;
}

function size(data: string): string {
  const text = data.replace(/\s/g, "");
  const bytes = Math.floor((text.length * 3) / 4) - (text.match(/=*$/)?.[0].length ?? 0);
  return bytes < 1024 ? `${format.number(bytes)} B` : `${format.number(Math.round(bytes / 1024))} KB`;
}

interface BlockProps {
  block: SamplingMessageContentBlock;
  /** The label of a text block's editor. */
  label: string;
  id: string;
  /** Given for an editable text block. */
  onText?: (text: string) => void;
}

/** One block of a sampling message: text (editable), an image, audio, or a tool call or result. */
export function SamplingBlock({ block, label, id, onText }: BlockProps) {
  const t = useT();
  const code = (chunks: ReactNode[]) => <code>{chunks}</code>;
  switch (block.type) {
    case "text":
      return onText ? (
        <LabelledField id={id} label={label}>
          <textarea
            id={id}
            className="form-input"
            rows={Math.min(10, Math.max(2, block.text.split("\n").length))}
            value={block.text}
            onChange={(e) => onText(e.target.value)}
          />
        </LabelledField>
      ) : (
        <p className="sampling-text">{block.text}</p>
      );
    case "image": {
      const src = dataUrl("image", block.mimeType, block.data);
      const about = { mimeType: block.mimeType, size: size(block.data) };
      return src ? (
        <img className="sampling-image" src={src} alt={t("approvals.content.image", about)} />
      ) : (
        <p className="muted">{t("approvals.content.imageNotShown", about)}</p>
      );
    }
    case "audio": {
      const src = dataUrl("audio", block.mimeType, block.data);
      const about = { mimeType: block.mimeType, size: size(block.data) };
      return src ? (
        <audio controls src={src} aria-label={t("approvals.content.audio", about)} />
      ) : (
        <p className="muted">{t("approvals.content.audioNotPlayed", about)}</p>
      );
    }
    case "tool_use":
      return (
        <div>
          <p className="form-label">{tx("approvals.content.toolCall", { name: block.name, code })}</p>
          <pre className="sampling-json">{JSON.stringify(block.input, null, 2)}</pre>
        </div>
      );
    case "tool_result":
      return (
        <div>
          <p className="form-label">
            {tx(block.isError ? "approvals.content.failedResult" : "approvals.content.result", {
              id: block.toolUseId,
              code,
            })}
          </p>
          <pre className="sampling-json">
            {block.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n")}
          </pre>
        </div>
      );
  }
}

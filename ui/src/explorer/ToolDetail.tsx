import { useId, useState, type KeyboardEvent, type ReactNode } from "react";
import type { CallToolResult, ResourceLink, Tool } from "../mcp/schema";
import { SafeMarkdown } from "../content/SafeMarkdown";
import { useT } from "../i18n";
import { ToolResultView } from "../content/ToolResultView";
import { ViewFrame } from "../views/ViewFrame";
import { viewOf } from "../views/viewOf";
import { CallProgress, type Progress } from "./CallProgress";
import { DetailHeader } from "./DetailHeader";
import { ErrorNote } from "./ErrorNote";
import { ToolClaims } from "./ToolClaims";
import "./explorer.css";

interface Props {
  server: string;
  tool: Tool;
  /** The argument form, built by the caller from the tool's input schema. */
  form: ReactNode;
  onInvoke(): void;
  busy: boolean;
  progress?: Progress | null;
  onCancel?(): void;
  result?: CallToolResult | null;
  error?: string | null;
  onOpenLink?(url: string): void;
  onReadResource?(link: ResourceLink): void;
  /** Offered beside the error when trying again may succeed (the server sent the person to a page first). */
  onRetry?(): void;
  /** The arguments the last call was made with, for the tool's view. */
  called?: Record<string, unknown>;
  /** For a tool that may run as a task: whether the next call asks to, and how to change it. */
  asTask?: boolean;
  onAsTask?(asTask: boolean): void;
}

/** Input types on which Enter does something of its own (or nothing a form submits on). */
const ENTER_IS_ITS_OWN = new Set(["button", "submit", "reset", "file", "image", "checkbox", "radio", "color", "range"]);

/** One tool: what it says it does, its arguments, the call and its answer. */
export function ToolDetail({
  server,
  tool,
  form,
  onInvoke,
  busy,
  progress,
  onCancel,
  result,
  error,
  onOpenLink,
  onReadResource,
  onRetry,
  called,
  asTask,
  onAsTask,
}: Props) {
  const t = useT();
  const headingId = useId();
  const view = viewOf(tool);
  // The view opened on its own, before or without a call (of the tool it was opened for).
  const [openFor, setOpenFor] = useState<string | null>(null);
  const appOpen = openFor === `${server}/${tool.name}`;
  const setAppOpen = (open: boolean) => setOpenFor(open ? `${server}/${tool.name}` : null);
  // Display name precedence set by the spec: title, then annotations.title, then name.
  const title = tool.title ?? tool.annotations?.title ?? tool.name;
  // Enter in a one-line field invokes, as it submits a form; a field that used it (a
  // suggestion picked) or a multi-line one keeps it.
  const onFormKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (
      e.key === "Enter" &&
      !busy &&
      !e.defaultPrevented &&
      !e.nativeEvent.isComposing &&
      !(e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) &&
      e.target instanceof HTMLInputElement &&
      !ENTER_IS_ITS_OWN.has(e.target.type)
    ) {
      e.preventDefault();
      onInvoke();
    }
  };
  return (
    <article className="explorer-item" aria-labelledby={headingId}>
      <DetailHeader kind="tool" title={title} name={tool.name} server={server} headingId={headingId} />
      {tool.description && <SafeMarkdown text={tool.description} onOpenLink={onOpenLink} />}
      <ToolClaims server={server} annotations={tool.annotations} />
      {tool.execution?.taskSupport === "required" && (
        <p className="muted tool-runs-as-task">{t("explorer.tool.runsAsTask")}</p>
      )}
      {tool.execution?.taskSupport === "optional" && onAsTask && (
        <label className="tool-runs-as-task">
          <input type="checkbox" checked={asTask ?? false} onChange={(e) => onAsTask(e.target.checked)} />
          {t("explorer.tool.runAsTask")}
        </label>
      )}
      <div className="detail-form" onKeyDown={onFormKey}>
        {form}
      </div>
      <div className="detail-actions">
        <button type="button" className="primary" onClick={onInvoke} disabled={busy}>
          {t("explorer.tool.invoke")}
        </button>
        {view && !appOpen && (
          <button type="button" onClick={() => setAppOpen(true)}>
            {t("explorer.tool.openApp")}
          </button>
        )}
        {busy && onCancel && (
          <button type="button" onClick={onCancel}>
            {t("explorer.tool.cancel")}
          </button>
        )}
      </div>
      {busy && <CallProgress progress={progress} />}
      <ErrorNote error={error} />
      {error && onRetry && !busy && (
        <div className="detail-actions">
          <button type="button" className="primary" onClick={onRetry}>
            {t("explorer.tool.tryAgain")}
          </button>
        </div>
      )}
      {result && <ToolResultView result={result} onOpenLink={onOpenLink} onReadResource={onReadResource} />}
      {view && appOpen && <ViewFrame server={server} uri={view} tool={tool} arguments={null} result={null} onClose={() => setAppOpen(false)} />}
      {result && view && <ViewFrame server={server} uri={view} tool={tool} arguments={called ?? {}} result={result} />}
    </article>
  );
}

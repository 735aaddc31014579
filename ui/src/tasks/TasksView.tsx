import { useState } from "react";
import { commands, type TaskEntry_Serialize as TaskEntry } from "../bindings";
import { ToolResultView } from "../content/ToolResultView";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import type { CallToolResult } from "../mcp/schema";
import { t as translate, useT } from "../i18n";
import { formatDateTime, formatElapsed, useNow } from "../servers/time";
import "./tasks.css";
import { askedByText } from "../activity/decisions";

const OVER = new Set(["completed", "failed", "cancelled", "lost"]);

/** Whether nothing more will be heard of it. */
const isOver = (task: TaskEntry) => task.result !== null || task.error !== null || OVER.has(task.status);

/** Where a task stands, in the window's words; a status of the server's own, as it says it. */
function statusOf(status: string): string {
  switch (status) {
    case "working":
      return translate("tasks.status.working");
    case "input_required":
      return translate("tasks.status.inputRequired");
    case "completed":
      return translate("tasks.status.completed");
    case "failed":
      return translate("tasks.status.failed");
    case "cancelled":
      return translate("tasks.status.cancelled");
    default:
      return status;
  }
}

/**
 * The tool calls that run as tasks at their servers, across servers, the newest first: who
 * called what, where each stands (its server's own words), for how long and how long its
 * server keeps it; a task under way can be cancelled, and a finished one's result opened.
 */
export function TasksView() {
  const t = useT();
  const tasks = useFetched(() => commands.tasks(), ["task_changed"]);
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = tasks.data ?? [];
  const now = useNow(list.some((t) => !isOver(t)));
  const cancel = (id: number) => {
    setError(null);
    commands.cancelTask(id).then(tasks.refresh, (err: unknown) => setError(errorMessage(err)));
  };
  if (tasks.data !== null && list.length === 0)
    return <p className="muted tasks-empty">{t("tasks.view.empty")}</p>;
  return (
    <section className="tasks" aria-label={t("tasks.view.label")}>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <table className="tasks-table">
        <thead>
          <tr>
            <th scope="col">{t("tasks.column.tool")}</th>
            <th scope="col">{t("tasks.column.askedBy")}</th>
            <th scope="col">{t("tasks.column.status")}</th>
            <th scope="col">{t("tasks.column.started")}</th>
            <th scope="col">{t("tasks.column.time")}</th>
            <th scope="col">{t("tasks.column.keptFor")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("tasks.column.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((task) => {
            const over = isOver(task);
            return (
              <tr key={task.id} className={`task-row task-${task.status}`}>
                <td>
                  <code>{task.tool}</code> <span className="muted">{t("tasks.task.ofServer", { server: task.server })}</span>
                </td>
                <td>{askedByText(task.askedBy)}</td>
                <td>
                  <strong>{statusOf(task.status)}</strong>
                  {task.statusMessage && <div className="muted task-message">{task.statusMessage}</div>}
                </td>
                <td>{formatDateTime(task.startedMs)}</td>
                <td>{formatElapsed((over ? task.updatedMs : now) - task.startedMs)}</td>
                <td>{task.ttlMs === null ? t("tasks.task.untilItEnds") : formatElapsed(task.ttlMs)}</td>
                <td>
                  <div className="task-actions">
                    {!over && (
                      <button type="button" className="button small danger" onClick={() => cancel(task.id)} aria-label={t("tasks.task.cancelLabel", { tool: task.tool, server: task.server })}>
                        {t("tasks.task.cancel")}
                      </button>
                    )}
                    {(task.result !== null || task.error !== null) && (
                      <button type="button" className="button small" aria-pressed={open === task.id} onClick={() => setOpen(open === task.id ? null : task.id)}>
                        {open === task.id ? t("tasks.task.hideResult") : t("tasks.task.openResult")}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {list
        .filter((t) => t.id === open)
        .map((task) => (
          <section key={task.id} className="task-result" aria-label={t("tasks.result.label", { tool: task.tool, server: task.server })}>
            <h3>
              {t("tasks.result.heading")} <code>{task.tool}</code> <span className="muted">{t("tasks.task.ofServer", { server: task.server })}</span>
            </h3>
            {task.result !== null ? <ToolResultView result={task.result as unknown as CallToolResult} /> : <p className="error">{task.error}</p>}
          </section>
        ))}
    </section>
  );
}

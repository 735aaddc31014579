import { useState } from "react";
import { commands, type TaskEntry_Serialize as TaskEntry } from "../bindings";
import { ToolResultView } from "../content/ToolResultView";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import type { CallToolResult } from "../mcp/schema";
import { formatDateTime, formatElapsed, useNow } from "../servers/time";
import "./tasks.css";

const OVER = new Set(["completed", "failed", "cancelled", "lost"]);

/** Whether nothing more will be heard of it. */
const isOver = (task: TaskEntry) => task.result !== null || task.error !== null || OVER.has(task.status);

const STATUS: Record<string, string> = {
  working: "Working",
  input_required: "Waiting for your answer",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

/**
 * The tool calls that run as tasks at their servers, across servers, the newest first: who
 * called what, where each stands (its server's own words), for how long and how long its
 * server keeps it; a task under way can be cancelled, and a finished one's result opened.
 */
export function TasksView() {
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
    return <p className="muted tasks-empty">No tool call has run as a task yet. A tool whose server runs it as a task shows here while it runs, and after.</p>;
  return (
    <section className="tasks" aria-label="Tasks">
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <table className="tasks-table">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Asked by</th>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col">Time</th>
            <th scope="col">Kept for</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((task) => {
            const over = isOver(task);
            return (
              <tr key={task.id} className={`task-row task-${task.status}`}>
                <td>
                  <code>{task.tool}</code> <span className="muted">of {task.server}</span>
                </td>
                <td>{task.askedBy}</td>
                <td>
                  <strong>{STATUS[task.status] ?? task.status}</strong>
                  {task.statusMessage && <div className="muted task-message">{task.statusMessage}</div>}
                </td>
                <td>{formatDateTime(task.startedMs)}</td>
                <td>{formatElapsed((over ? task.updatedMs : now) - task.startedMs)}</td>
                <td>{task.ttlMs === null ? "Until it ends" : formatElapsed(task.ttlMs)}</td>
                <td>
                  <div className="task-actions">
                    {!over && (
                      <button type="button" className="button small danger" onClick={() => cancel(task.id)} aria-label={`Cancel ${task.tool} of ${task.server}`}>
                        Cancel
                      </button>
                    )}
                    {(task.result !== null || task.error !== null) && (
                      <button type="button" className="button small" aria-pressed={open === task.id} onClick={() => setOpen(open === task.id ? null : task.id)}>
                        {open === task.id ? "Hide result" : "Open result"}
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
          <section key={task.id} className="task-result" aria-label={`Result of ${task.tool} of ${task.server}`}>
            <h3>
              Result of <code>{task.tool}</code> <span className="muted">of {task.server}</span>
            </h3>
            {task.result !== null ? <ToolResultView result={task.result as unknown as CallToolResult} /> : <p className="error">{task.error}</p>}
          </section>
        ))}
    </section>
  );
}

import { useState } from "react";
import { commands } from "../../bindings";
import { errorMessage } from "../../errors";
import type { CallToolResult, Tool } from "../../mcp/schema";
import { ToolDetail } from "../../explorer/ToolDetail";
import { SchemaForm, defaultsOf, validate } from "../../forms/SchemaForm";
import { useHostUpdates } from "../../host/updates";

type Progress = { progress: number; total?: number; message?: string };

let calls = 0;

/** A tool: its form, the call through the approval gate, its progress and its result. */
export function ToolPanel({ server, tool }: { server: string; tool: Tool }) {
  const [value, setValue] = useState<Record<string, unknown>>(() => defaultsOf(tool.inputSchema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [token, setToken] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState<CallToolResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  useHostUpdates((update) => {
    if (update.kind === "progress" && update.item.token === token) {
      const { progress, total, message } = update.item;
      setProgress({
        progress: progress ?? 0,
        ...(total != null ? { total } : {}),
        ...(message != null ? { message } : {}),
      });
    }
  });

  const invoke = () => {
    const problems = validate(tool.inputSchema, value);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const mine = `explorer-${++calls}`;
    setToken(mine);
    setProgress(null);
    setResult(null);
    setError(null);
    commands
      .callTool(server, tool.name, value as never, mine)
      .then(
        (r) => setResult(r as unknown as CallToolResult),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(() => setToken(null));
  };

  return (
    <ToolDetail
      server={server}
      tool={tool}
      form={
        <SchemaForm
          schema={tool.inputSchema}
          value={value}
          onChange={setValue}
          errors={errors}
          idPrefix={`tool-${server}-${tool.name}`}
        />
      }
      onInvoke={invoke}
      busy={token !== null}
      progress={progress}
      onCancel={() => token && void commands.cancelCall(token)}
      result={result}
      error={error}
    />
  );
}

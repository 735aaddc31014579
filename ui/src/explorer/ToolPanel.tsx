import { commands } from "../bindings";
import { errorCode, errorMessage } from "../errors";
import type { CallToolResult, Tool } from "../mcp/schema";
import { ToolDetail } from "./ToolDetail";
import { SchemaForm, defaultsOf, validate } from "../forms/SchemaForm";
import { progressKey, useKept, type CallProgressKept } from "./kept";
import { useOpenResource } from "./openResource";

let calls = 0;

/**
 * A tool: its form, the call through the approval gate, its progress and its result, all
 * kept in the explorer's store: they are there again when the person comes back.
 */
export function ToolPanel({ server, tool }: { server: string; tool: Tool }) {
  const key = `tool:${server}/${tool.name}`;
  const [value, setValue] = useKept<Record<string, unknown>>(`${key}:value`, () => defaultsOf(tool.inputSchema));
  const [errors, setErrors] = useKept<Record<string, string>>(`${key}:errors`, {});
  const [token, setToken] = useKept<string | null>(`${key}:token`, null);
  const [progress] = useKept<CallProgressKept | null>(progressKey(token ?? ""), null);
  const [result, setResult] = useKept<CallToolResult | null>(`${key}:result`, null);
  const [error, setError] = useKept<string | null>(`${key}:error`, null);
  // The arguments of the last call, which the tool's view is given.
  const [called, setCalled] = useKept<Record<string, unknown>>(`${key}:called`, {});
  // Set when the server sent the person to a page first: the same call may now go through.
  const [retry, setRetry] = useKept(`${key}:retry`, false);
  const [asTask, setAsTask] = useKept(`${key}:asTask`, false);
  const openResource = useOpenResource(server);

  const invoke = () => {
    const problems = validate(tool.inputSchema, value);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const mine = `explorer-${++calls}`;
    setToken(mine);
    setCalled(value);
    setResult(null);
    setError(null);
    setRetry(false);
    commands
      .callTool(server, tool.name, value as never, mine, asTask)
      .then(
        (r) => setResult(r),
        (err: unknown) => {
          setError(errorMessage(err));
          setRetry(errorCode(err) === "browser_step");
        },
      )
      .finally(() => setToken((current) => (current === mine ? null : current)));
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
      called={called}
      error={error}
      {...(openResource ? { onReadResource: openResource } : {})}
      {...(retry ? { onRetry: invoke } : {})}
      asTask={asTask}
      onAsTask={setAsTask}
    />
  );
}

import { commands } from "../bindings";
import type { GetPromptResult, Prompt } from "../mcp/schema";
import { PromptDetail } from "./PromptDetail";
import { completer } from "./completion";
import { useHostCall } from "./useHostCall";
import { useKept } from "./kept";
import { useOpenResource } from "./openResource";

export function PromptPanel({ server, prompt }: { server: string; prompt: Prompt }) {
  const key = `prompt:${server}/${prompt.name}`;
  const [values, setValues] = useKept<Record<string, string>>(`${key}:values`, {});
  const { result, error, run } = useHostCall<GetPromptResult>(key);
  const openResource = useOpenResource(server);
  return (
    <PromptDetail
      server={server}
      prompt={prompt}
      values={values}
      onValues={setValues}
      complete={completer(server, { type: "ref/prompt", name: prompt.name }, values)}
      onGet={() => void run(commands.getPrompt(server, prompt.name, values))}
      result={result}
      error={error}
      {...(openResource ? { onReadResource: openResource } : {})}
    />
  );
}

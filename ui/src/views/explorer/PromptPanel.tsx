import { useState } from "react";
import { commands } from "../../bindings";
import type { GetPromptResult, Prompt } from "../../mcp/schema";
import { PromptDetail } from "../../explorer/PromptDetail";
import { completer } from "./completion";
import { useHostCall } from "./useHostCall";

export function PromptPanel({ server, prompt }: { server: string; prompt: Prompt }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const { result, error, run } = useHostCall<GetPromptResult>();
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
    />
  );
}

import { useState } from "react";
import { commands } from "../../bindings";
import { errorMessage } from "../../errors";
import type { GetPromptResult, Prompt } from "../../mcp/schema";
import { PromptDetail } from "../../explorer/PromptDetail";
import { completer } from "./completion";

export function PromptPanel({ server, prompt }: { server: string; prompt: Prompt }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<GetPromptResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const get = () =>
    commands.getPrompt(server, prompt.name, values).then(
      (r) => {
        setResult(r as unknown as GetPromptResult);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  return (
    <PromptDetail
      server={server}
      prompt={prompt}
      values={values}
      onValues={setValues}
      complete={completer(server, { type: "ref/prompt", name: prompt.name }, values)}
      onGet={() => void get()}
      result={result}
      error={error}
    />
  );
}

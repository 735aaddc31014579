import { useState } from "react";
import { errorMessage } from "../../errors";

/** The answer of the last call made to the host, or why it failed; `run` makes a call. */
export function useHostCall<T>() {
  const [result, setResult] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (call: Promise<unknown>) =>
    call.then(
      (answer) => {
        setResult(answer as T);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  return { result, error, setError, run };
}

import { useKept } from "./kept";
import { errorMessage } from "../errors";

/**
 * The answer of the last call made to the host, or why it failed; `run` makes a call. Kept
 * under `key` in the explorer's store: the answer outlives the view.
 */
export function useHostCall<T>(key: string) {
  const [result, setResult] = useKept<T | null>(`${key}:result`, null);
  const [error, setError] = useKept<string | null>(`${key}:error`, null);
  const run = (call: Promise<T>) =>
    call.then(
      (answer) => {
        setResult(answer);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  return { result, error, setError, run };
}

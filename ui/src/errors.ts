import type { CommandError } from "./bindings";

function isCommandError(err: unknown): err is CommandError {
  return typeof err === "object" && err !== null && "code" in err && "message" in err;
}

/** A readable message for whatever a command rejected with. */
export function errorMessage(err: unknown): string {
  if (isCommandError(err)) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

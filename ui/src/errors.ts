import type { CommandError } from "./bindings";

function isCommandError(err: unknown): err is CommandError {
  return typeof err === "object" && err !== null && "code" in err && "message" in err;
}

/** The code of a command's error, to branch on; none for anything else. */
export function errorCode(err: unknown): CommandError["code"] | null {
  return isCommandError(err) ? err.code : null;
}

/** A readable message for whatever a command rejected with. */
export function errorMessage(err: unknown): string {
  if (isCommandError(err)) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

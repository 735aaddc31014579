import { commands } from "../bindings";

type Reference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** Asks the server for suggestions for one argument, given the others already chosen. */
export function completer(server: string, ref: Reference, values: Record<string, string>) {
  return (argument: string, value: string): Promise<string[]> =>
    commands.complete(server, {
      ref,
      argument: { name: argument, value },
      context: { arguments: values },
    });
}

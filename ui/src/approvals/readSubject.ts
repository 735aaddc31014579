import type { Read } from "../bindings";

/** What is read, in a line of text. */
export function readSubject(read: Read): string {
  switch (read.kind) {
    case "resource":
    case "subscription":
      return read.uri;
    case "prompt":
      return `the prompt ${read.name}`;
    case "completion":
      return `suggestions for ${read.argument} of ${read.of}`;
    case "skill":
      return `the skill ${read.name}`;
  }
}

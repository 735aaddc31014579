import type { ImportCandidate, ImportRequest, ImportableServer, InputPrompt, Reference } from "../bindings";

export type Decision = "keep" | "drop";

/** What the person chose in one file: the servers, what to keep of each, and the answers. */
export interface ImportChoices {
  picked: ReadonlySet<string>;
  /** By server name, then by {@link referenceKey}; a reference not in here is undecided. */
  decisions: Readonly<Record<string, Readonly<Record<string, Decision>>>>;
  /** By input id. */
  answers: Readonly<Record<string, string>>;
}

/**
 * A reference as the person saw it. A decision holds for exactly this text in this slot: a file read
 * again with another value there asks afresh.
 */
export function referenceKey(reference: Reference): string {
  return JSON.stringify([reference.place, reference.key, reference.reaches.kind, reference.text]);
}

export function decisionOf(choices: ImportChoices, server: string, reference: Reference): Decision | undefined {
  return choices.decisions[server]?.[referenceKey(reference)];
}

/** The servers that will be imported: picked, and not already configured. */
export function chosenServers(candidate: ImportCandidate, picked: ReadonlySet<string>): ImportableServer[] {
  return candidate.servers.filter((s) => !s.conflict && picked.has(s.name));
}

export interface NeededInput {
  input: InputPrompt;
  /** The chosen servers that need it. */
  servers: string[];
}

/** The inputs the chosen servers need, each once: one answer serves every server that uses it. */
export function neededInputs(chosen: ImportableServer[]): NeededInput[] {
  const needed = new Map<string, NeededInput>();
  for (const server of chosen) {
    for (const input of server.inputs) {
      const entry = needed.get(input.id);
      if (entry) entry.servers.push(server.name);
      else needed.set(input.id, { input, servers: [server.name] });
    }
  }
  return [...needed.values()];
}

/** How much still waits for the person before the chosen servers can be imported. */
export function outstanding(chosen: ImportableServer[], choices: ImportChoices): { undecided: number; unanswered: number } {
  const undecided = chosen
    .flatMap((server) => server.references.map((reference) => decisionOf(choices, server.name, reference)))
    .filter((decision) => decision === undefined).length;
  const unanswered = neededInputs(chosen).filter(({ input }) => (choices.answers[input.id] ?? "") === "").length;
  return { undecided, unanswered };
}

/** The request for the chosen servers: only the references the person kept, only the answers they need. */
export function importRequest(candidate: ImportCandidate, choices: ImportChoices): ImportRequest {
  const chosen = chosenServers(candidate, choices.picked);
  return {
    source: candidate.source,
    path: candidate.path,
    servers: chosen.map((server) => ({
      name: server.name,
      keep: server.references.filter((reference) => decisionOf(choices, server.name, reference) === "keep"),
    })),
    answers: neededInputs(chosen).map(({ input }) => ({ id: input.id, value: choices.answers[input.id] ?? "" })),
  };
}

import type { ImportCandidate, ImportRequest, ImportableServer, InputPrompt, Reference } from "../bindings";
import { t } from "../i18n";

export type Decision = "keep" | "drop";

/**
 * What the person chose in one file: the servers, the names to import them under, what to keep of
 * each, whether their plain-text tokens go to the keyring, and the answers.
 */
export interface ImportChoices {
  picked: ReadonlySet<string>;
  /** By server name: the name typed for it; a server not in here goes under its suggested name. */
  names: Readonly<Record<string, string>>;
  /** By server name: false when the person keeps its tokens in plain text (they move by default). */
  toKeyring: Readonly<Record<string, boolean>>;
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

/** The choices a file starts with: every server picked but those whose name is configured already. */
export function initialChoices(candidate: ImportCandidate): ImportChoices {
  return {
    picked: new Set(candidate.servers.filter((s) => !s.conflict).map((s) => s.name)),
    names: {},
    toKeyring: {},
    decisions: {},
    answers: {},
  };
}

/** The servers that will be imported: those picked. */
export function chosenServers(candidate: ImportCandidate, picked: ReadonlySet<string>): ImportableServer[] {
  return candidate.servers.filter((s) => picked.has(s.name));
}

/** The name as typed for `server` (its suggested one until the person types). */
export function typedName(server: ImportableServer, choices: ImportChoices): string {
  return choices.names[server.name] ?? server.suggestedName;
}

/** The name `server` will be imported under. */
export function targetName(server: ImportableServer, choices: ImportChoices): string {
  return typedName(server, choices).trim();
}

export function movesTokens(server: ImportableServer, choices: ImportChoices): boolean {
  return server.plainSecrets.length > 0 && (choices.toKeyring[server.name] ?? true);
}

const NAME = /^[A-Za-z0-9._-]+$/;

/**
 * What is wrong with the name a picked server would be imported under, the way the host would refuse
 * it: no name, a character a name may not hold, a server configured under it, or another server of
 * the file imported under it.
 */
export function nameProblem(candidate: ImportCandidate, choices: ImportChoices, server: ImportableServer): string | undefined {
  const name = targetName(server, choices);
  if (name === "") return t("serverForm.import.nameEmpty");
  if (!NAME.test(name)) return t("serverForm.import.nameCharacters");
  if (candidate.configured.includes(name)) return t("serverForm.import.nameConfigured", { name });
  const twin = chosenServers(candidate, choices.picked).find((s) => s.name !== server.name && targetName(s, choices) === name);
  if (twin) return t("serverForm.import.nameTwice", { other: twin.name, name });
  return undefined;
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
export function outstanding(
  chosen: ImportableServer[],
  choices: ImportChoices,
  candidate?: ImportCandidate,
): { undecided: number; unanswered: number; misnamed: number } {
  const undecided = chosen
    .flatMap((server) => server.references.map((reference) => decisionOf(choices, server.name, reference)))
    .filter((decision) => decision === undefined).length;
  const unanswered = neededInputs(chosen).filter(({ input }) => (choices.answers[input.id] ?? "") === "").length;
  const misnamed = candidate ? chosen.filter((server) => nameProblem(candidate, choices, server) !== undefined).length : 0;
  return { undecided, unanswered, misnamed };
}

/**
 * The request for the chosen servers, under the names given: only the references the person kept,
 * only the answers they need.
 */
export function importRequest(candidate: ImportCandidate, choices: ImportChoices): ImportRequest {
  const chosen = chosenServers(candidate, choices.picked);
  return {
    source: candidate.source,
    path: candidate.path,
    servers: chosen.map((server) => {
      const name = targetName(server, choices);
      return {
        name: server.name,
        keep: server.references.filter((reference) => decisionOf(choices, server.name, reference) === "keep"),
        importAs: name === server.name ? null : name,
        toKeyring: movesTokens(server, choices),
      };
    }),
    answers: neededInputs(chosen).map(({ input }) => ({ id: input.id, value: choices.answers[input.id] ?? "" })),
  };
}

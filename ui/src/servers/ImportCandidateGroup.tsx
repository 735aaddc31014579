import { useId, useState } from "react";
import type { ImportCandidate, ImportRequest, ImportableServer, Reference } from "../bindings";
import { InputAnswers } from "./InputAnswers";
import { ReferenceChoice } from "./ReferenceChoice";
import { ImportName } from "./ImportName";
import { PlainTokens } from "./PlainTokens";
import {
  chosenServers,
  decisionOf,
  importRequest,
  initialChoices,
  movesTokens,
  nameProblem,
  neededInputs,
  outstanding,
  referenceKey,
  typedName,
  type Decision,
  type ImportChoices,
} from "./importChoices";

export interface ImportCandidateGroupProps {
  candidate: ImportCandidate;
  onImport(request: ImportRequest): void;
}

/**
 * One file's servers, to pick; a server whose name is configured already is offered under a free
 * name the person may change. For each picked server, every value that reaches beyond its entry is
 * kept or dropped by the person, its plain-text tokens go to the keyring unless they say otherwise,
 * and the values it asks for are entered, before it is imported.
 */
export function ImportCandidateGroup({ candidate, onImport }: ImportCandidateGroupProps) {
  const id = useId();
  // A server whose name is taken starts unpicked: importing a file twice adds nothing by default.
  const [choices, setChoices] = useState<ImportChoices>(() => initialChoices(candidate));
  const chosen = chosenServers(candidate, choices.picked);
  const waiting = waitingFor(chosen, choices, candidate);
  const toggle = (name: string, on: boolean) =>
    setChoices((c) => {
      const picked = new Set(c.picked);
      if (on) picked.add(name);
      else picked.delete(name);
      return { ...c, picked };
    });
  const decide = (server: string, reference: Reference, decision: Decision) =>
    setChoices((c) => ({
      ...c,
      decisions: { ...c.decisions, [server]: { ...c.decisions[server], [referenceKey(reference)]: decision } },
    }));
  const answer = (input: string, value: string) => setChoices((c) => ({ ...c, answers: { ...c.answers, [input]: value } }));
  const rename = (server: string, name: string) => setChoices((c) => ({ ...c, names: { ...c.names, [server]: name } }));
  const moveTokens = (server: string, on: boolean) =>
    setChoices((c) => ({ ...c, toKeyring: { ...c.toKeyring, [server]: on } }));

  return (
    <fieldset className="import-candidate">
      <legend>{candidate.source}</legend>
      <p className="muted mono">{candidate.path}</p>
      {candidate.warnings.map((warning, i) => (
        <p key={i} className="warning">
          {warning}
        </p>
      ))}
      {candidate.servers.length === 0 ? (
        <p className="muted">This file configures no servers.</p>
      ) : (
        <ul>
          {candidate.servers.map((server, i) => {
            const picked = choices.picked.has(server.name);
            return (
              <li key={server.name}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={picked}
                    aria-describedby={`${id}-${i}`}
                    onChange={(e) => toggle(server.name, e.target.checked)}
                  />
                  <span className="server-name">{server.name}</span>
                </label>
                <span id={`${id}-${i}`} className="import-target">
                  <span className="mono">{server.target}</span>
                  {server.conflict && <span className="tag">already configured</span>}
                </span>
                {server.conflict && (
                  <ImportName
                    server={server.name}
                    value={typedName(server, choices)}
                    picked={picked}
                    problem={picked ? nameProblem(candidate, choices, server) : undefined}
                    onChange={(name) => rename(server.name, name)}
                  />
                )}
                {picked && server.plainSecrets.length > 0 && (
                  <PlainTokens
                    server={server.name}
                    tokens={server.plainSecrets}
                    checked={movesTokens(server, choices)}
                    onChange={(on) => moveTokens(server.name, on)}
                  />
                )}
                {picked && server.references.length > 0 && (
                  <>
                    <p className="hint import-references-hint">
                      These values reach beyond the entry. Each is imported only if you keep it; a dropped one leaves its
                      variable or header out.
                    </p>
                    <ul className="import-references" aria-label={`What ${server.name} reaches beyond its entry`}>
                      {server.references.map((reference) => (
                        <ReferenceChoice
                          key={referenceKey(reference)}
                          server={server.name}
                          reference={reference}
                          decision={decisionOf(choices, server.name, reference)}
                          onDecide={(decision) => decide(server.name, reference, decision)}
                        />
                      ))}
                    </ul>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <InputAnswers needed={neededInputs(chosen)} answers={choices.answers} onAnswer={answer} />
      {waiting && (
        <p id={`${id}-waiting`} className="hint">
          {waiting}
        </p>
      )}
      <button
        type="button"
        className="primary"
        aria-label={`Import selected from ${candidate.source}`}
        aria-describedby={waiting ? `${id}-waiting` : undefined}
        disabled={chosen.length === 0 || waiting !== null}
        onClick={() => onImport(importRequest(candidate, choices))}
      >
        Import selected{chosen.length > 0 ? ` (${chosen.length})` : ""}
      </button>
    </fieldset>
  );
}

/** What the person must still do before the chosen servers can be imported, said in a sentence. */
function waitingFor(chosen: ImportableServer[], choices: ImportChoices, candidate: ImportCandidate): string | null {
  const { undecided, unanswered, misnamed } = outstanding(chosen, choices, candidate);
  const todo = [
    misnamed > 0 && `give ${misnamed === 1 ? "1 server a free name" : `${misnamed} servers free names`}`,
    undecided > 0 && `keep or drop ${undecided === 1 ? "1 value" : `${undecided} values`} that reach beyond their entry`,
    unanswered > 0 && `enter ${unanswered === 1 ? "1 value" : `${unanswered} values`}`,
  ].filter((part): part is string => typeof part === "string");
  return todo.length === 0 ? null : `To import, ${todo.join(" and ")}.`;
}

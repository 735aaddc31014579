import { useId, useState } from "react";
import type { ImportCandidate, ImportRequest, ImportableServer, Reference } from "../bindings";
import { InputAnswers } from "./InputAnswers";
import { ReferenceChoice } from "./ReferenceChoice";
import {
  chosenServers,
  decisionOf,
  importRequest,
  neededInputs,
  outstanding,
  referenceKey,
  type Decision,
  type ImportChoices,
} from "./importChoices";

export interface ImportCandidateGroupProps {
  candidate: ImportCandidate;
  onImport(request: ImportRequest): void;
}

/**
 * One file's servers, to pick; for each picked server, every value that reaches beyond its entry
 * is kept or dropped by the person, and the values it asks for are entered, before it is imported.
 */
export function ImportCandidateGroup({ candidate, onImport }: ImportCandidateGroupProps) {
  const id = useId();
  // Everything importable starts picked; a name already configured is skipped by the host.
  const [choices, setChoices] = useState<ImportChoices>(() => ({
    picked: new Set(candidate.servers.filter((s) => !s.conflict).map((s) => s.name)),
    decisions: {},
    answers: {},
  }));
  const chosen = chosenServers(candidate, choices.picked);
  const waiting = waitingFor(chosen, choices);
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
            const picked = !server.conflict && choices.picked.has(server.name);
            return (
              <li key={server.name}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={picked}
                    disabled={server.conflict}
                    aria-describedby={`${id}-${i}`}
                    onChange={(e) => toggle(server.name, e.target.checked)}
                  />
                  <span className="server-name">{server.name}</span>
                </label>
                <span id={`${id}-${i}`} className="import-target">
                  <span className="mono">{server.target}</span>
                  {server.conflict && <span className="tag">already configured: skipped</span>}
                </span>
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
function waitingFor(chosen: ImportableServer[], choices: ImportChoices): string | null {
  const { undecided, unanswered } = outstanding(chosen, choices);
  const todo = [
    undecided > 0 && `keep or drop ${undecided === 1 ? "1 value" : `${undecided} values`} that reach beyond their entry`,
    unanswered > 0 && `enter ${unanswered === 1 ? "1 value" : `${unanswered} values`}`,
  ].filter((part): part is string => typeof part === "string");
  return todo.length === 0 ? null : `To import, ${todo.join(" and ")}.`;
}

import { useId, useState } from "react";
import type { ImportCandidate, ImportRequest, ImportableServer, Reference } from "../bindings";
import { InputAnswers } from "./InputAnswers";
import { ReferenceChoice } from "./ReferenceChoice";
import { ImportName } from "./ImportName";
import { PlainTokens } from "./PlainTokens";
import { importWarningText } from "./imports";
import { t as translate, useT, type MessageId } from "../i18n";
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
  const t = useT();
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
          {importWarningText(warning)}
        </p>
      ))}
      {candidate.servers.length === 0 ? (
        <p className="muted">{t("serverForm.import.noServers")}</p>
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
                  {server.conflict && <span className="tag">{t("serverForm.import.alreadyConfigured")}</span>}
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
                      {t("serverForm.import.referencesHint")}
                    </p>
                    <ul className="import-references" aria-label={t("serverForm.import.references", { server: server.name })}>
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
        aria-label={t("serverForm.import.importLabel", { source: candidate.source })}
        aria-describedby={waiting ? `${id}-waiting` : undefined}
        disabled={chosen.length === 0 || waiting !== null}
        onClick={() => onImport(importRequest(candidate, choices))}
      >
        {t("serverForm.import.importSelected", { count: chosen.length })}
      </button>
    </fieldset>
  );
}

/**
 * The sentence for what still waits, by whether a name, a decision and an answer are missing
 * (in that order, "1" where one is): each combination a sentence of its own.
 */
const WAITING: Readonly<Record<string, MessageId>> = {
  "100": "serverForm.import.waiting.name",
  "010": "serverForm.import.waiting.decide",
  "001": "serverForm.import.waiting.enter",
  "110": "serverForm.import.waiting.nameDecide",
  "101": "serverForm.import.waiting.nameEnter",
  "011": "serverForm.import.waiting.decideEnter",
  "111": "serverForm.import.waiting.all",
};

/** What the person must still do before the chosen servers can be imported, said in a sentence. */
function waitingFor(chosen: ImportableServer[], choices: ImportChoices, candidate: ImportCandidate): string | null {
  const { undecided, unanswered, misnamed } = outstanding(chosen, choices, candidate);
  const sentence = WAITING[[misnamed, undecided, unanswered].map((n) => (n > 0 ? "1" : "0")).join("")];
  return sentence === undefined ? null : translate(sentence, { misnamed, undecided, unanswered });
}

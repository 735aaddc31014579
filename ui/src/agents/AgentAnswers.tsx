import { useState } from "react";
import { commands, type AgentAnswers_Serialize as Answers } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";

const KINDS: { key: keyof Answers; label: string }[] = [
  { key: "sampling", label: "Sampling requests of the servers it calls (its own model replies)" },
  { key: "elicitation", label: "Forms of the servers it calls (a link to open always comes to you)" },
];

/**
 * What an agent may answer in the person's stead when a server, while serving one of its calls,
 * asks something: sampling, forms. Off by default; it takes effect only for an agent that says it
 * can answer, and anything else still comes to the person's dialogs.
 */
export function AgentAnswers({ name }: { name: string }) {
  const held = useFetched(() => commands.agentAnswers(name), ["agents_changed"], [name]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const answers = held.data;
  if (answers === null) return null;
  const turn = (key: keyof Answers, on: boolean) => {
    setBusy(true);
    commands
      .setAgentAnswers(name, { ...answers, [key]: on })
      .then(
        () => setError(null),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(() => {
        setBusy(false);
        held.refresh();
      });
  };
  return (
    <fieldset className="agent-answers">
      <legend>What {name} may answer for you</legend>
      {KINDS.map(({ key, label }) => (
        <label key={key}>
          <input type="checkbox" checked={answers[key]} disabled={busy} onChange={(e) => turn(key, e.target.checked)} />{" "}
          {label}
        </label>
      ))}
      <p className="muted">
        Only while a server serves a call of {name}, and only if {name} said it can; otherwise you are asked.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

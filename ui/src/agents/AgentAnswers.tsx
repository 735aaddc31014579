import { useState } from "react";
import { commands, type AgentAnswers_Serialize as Answers } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { useT, type t as translate } from "../i18n";

/** What an agent may answer, in the order offered. */
const KINDS: (keyof Answers)[] = ["sampling", "elicitation"];

/** What one kind of answer is, in the window's language. */
function label(t: typeof translate, kind: keyof Answers): string {
  switch (kind) {
    case "sampling":
      return t("agents.answers.sampling");
    case "elicitation":
      return t("agents.answers.elicitation");
  }
}

/**
 * What an agent may answer in the person's stead when a server, while serving one of its calls,
 * asks something: sampling, forms. Off by default; it takes effect only for an agent that says it
 * can answer, and anything else still comes to the person's dialogs.
 */
export function AgentAnswers({ name }: { name: string }) {
  const t = useT();
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
      <legend>{t("agents.answers.legend", { name })}</legend>
      {KINDS.map((key) => (
        <label key={key}>
          <input type="checkbox" checked={answers[key]} disabled={busy} onChange={(e) => turn(key, e.target.checked)} />{" "}
          {label(t, key)}
        </label>
      ))}
      <p className="muted">{t("agents.answers.note", { name })}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

import { useId } from "react";
import type { NeededInput } from "./importChoices";
import { tx, useT } from "../i18n";

export interface InputAnswersProps {
  needed: NeededInput[];
  answers: Readonly<Record<string, string>>;
  onAnswer(id: string, value: string): void;
}

/** The values the imported servers ask for (VS Code's inputs), each once; a password is typed unseen. */
export function InputAnswers({ needed, answers, onAnswer }: InputAnswersProps) {
  const t = useT();
  const id = useId();
  if (needed.length === 0) return null;
  return (
    <fieldset className="import-inputs">
      <legend>{t("serverForm.import.inputs")}</legend>
      <p className="hint">{t("serverForm.import.inputsHint")}</p>
      {needed.map(({ input, servers }, i) => (
        <div key={input.id} className="import-input">
          <label htmlFor={`${id}-${i}`}>{input.description}</label>
          <input
            id={`${id}-${i}`}
            className="mono"
            type={input.password ? "password" : "text"}
            value={answers[input.id] ?? ""}
            required
            spellCheck={false}
            autoComplete="off"
            aria-describedby={`${id}-${i}-for`}
            onChange={(e) => onAnswer(input.id, e.target.value)}
          />
          <span id={`${id}-${i}-for`} className="hint">
            {tx("serverForm.import.inputFor", { input: <span className="mono">{input.id}</span>, servers: servers.join(", ") })}
          </span>
        </div>
      ))}
    </fieldset>
  );
}

import { useId } from "react";
import type { Reference } from "../bindings";
import type { Decision } from "./importChoices";
import { t as translate, tx, useT } from "../i18n";

export interface ReferenceChoiceProps {
  server: string;
  reference: Reference;
  decision: Decision | undefined;
  onDecide(decision: Decision): void;
}

/**
 * One value of an imported entry that reaches beyond it, written exactly as the file has it
 * (as JSON, so that nothing hides in it), with what it would reach; the person keeps or drops it.
 */
export function ReferenceChoice({ server, reference, decision, onDecide }: ReferenceChoiceProps) {
  const t = useT();
  const id = useId();
  const key = <span className="mono">{reference.key}</span>;
  const what =
    reference.place === "env"
      ? tx("serverForm.reference.env", { key, server })
      : tx("serverForm.reference.header", { key, server });
  const note = reaches(reference, server);
  return (
    <li className="import-reference">
      <div role="radiogroup" aria-labelledby={`${id}-what`} aria-describedby={`${id}-text ${id}-note`}>
        <span id={`${id}-what`} className="import-reference-what">
          {what}
        </span>
        <code id={`${id}-text`} className="mono import-reference-text">
          {writtenAs(reference)}
        </code>
        <span id={`${id}-note`} className={note.warn ? "warning" : "hint"}>
          {note.text}
        </span>
        <span className="inline">
          {(["keep", "drop"] as const).map((choice) => (
            <label key={choice} className="check">
              <input type="radio" name={`${id}-decision`} checked={decision === choice} onChange={() => onDecide(choice)} />
              {choice === "keep" ? t("serverForm.reference.keep") : t("serverForm.reference.drop")}
            </label>
          ))}
        </span>
      </div>
    </li>
  );
}

/** The value as the file writes it. */
function writtenAs(reference: Reference): string {
  const text = JSON.stringify(reference.text);
  return reference.reaches.kind === "secret" ? `{ "secret": ${text} }` : text;
}

function reaches(reference: Reference, server: string): { text: string; warn: boolean } {
  const { reaches } = reference;
  if (reaches.kind === "environment") {
    return {
      text: translate("serverForm.reference.environment", { variables: reaches.variables.join(", ") }),
      warn: true,
    };
  }
  if (reaches.own) return { text: translate("serverForm.reference.ownSecret"), warn: false };
  return {
    text: translate("serverForm.reference.otherSecret", { name: `${server}/${reference.place}/${reference.key}` }),
    warn: true,
  };
}

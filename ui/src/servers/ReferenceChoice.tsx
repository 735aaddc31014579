import { useId } from "react";
import type { Reference } from "../bindings";
import type { Decision } from "./importChoices";

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
  const id = useId();
  const noun = reference.place === "env" ? "Environment variable" : "Header";
  const note = reaches(reference, server);
  return (
    <li className="import-reference">
      <div role="radiogroup" aria-labelledby={`${id}-what`} aria-describedby={`${id}-text ${id}-note`}>
        <span id={`${id}-what`} className="import-reference-what">
          {noun} <span className="mono">{reference.key}</span> of {server}
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
              {choice === "keep" ? "Keep" : "Drop"}
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
      text: `Filled from Switchboard's environment each time the server starts: ${reaches.variables.join(", ")}.`,
      warn: true,
    };
  }
  if (reaches.own) return { text: "A secret from the OS keyring, stored under this server's own name.", warn: false };
  return {
    text:
      `A secret from the OS keyring stored under another name than this server's own ` +
      `(${server}/${reference.place}/${reference.key}): Switchboard will refuse to start the server with it.`,
    warn: true,
  };
}

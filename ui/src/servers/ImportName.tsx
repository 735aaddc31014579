import { useId } from "react";
import { FieldError, describedBy } from "./FieldError";
import { useT } from "../i18n";

export interface ImportNameProps {
  server: string;
  value: string;
  /** Whether the server is picked: its name is checked, and it can be typed, only then. */
  picked: boolean;
  problem: string | undefined;
  onChange(name: string): void;
}

/** The name a server whose own name is configured already is imported under; checked as it is typed. */
export function ImportName({ server, value, picked, problem, onChange }: ImportNameProps) {
  const t = useT();
  const id = useId();
  return (
    <div className="import-name">
      <label htmlFor={id}>{t("serverForm.import.importAs", { server })}</label>
      <input
        id={id}
        className="mono"
        value={value}
        disabled={!picked}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem !== undefined}
        aria-describedby={describedBy(problem && `${id}-error`)}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldError id={`${id}-error`} message={problem} />
    </div>
  );
}

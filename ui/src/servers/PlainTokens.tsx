import { useId } from "react";
import type { PlainSecret } from "../bindings";

export interface PlainTokensProps {
  server: string;
  tokens: PlainSecret[];
  checked: boolean;
  onChange(on: boolean): void;
}

/**
 * The offer to move the tokens a file holds in plain text into the OS keyring: the configuration then
 * keeps only a reference to each, as the server form does for a secret.
 */
export function PlainTokens({ server, tokens, checked, onChange }: PlainTokensProps) {
  const id = useId();
  const names = tokens.map((t) => `${t.key} (${t.place === "env" ? "environment variable" : "header"})`).join(", ");
  return (
    <div className="import-tokens">
      <label className="check">
        <input type="checkbox" checked={checked} aria-describedby={`${id}-which`} onChange={(e) => onChange(e.target.checked)} />
        Move {tokens.length === 1 ? "its token" : `its ${tokens.length} tokens`} to the OS keyring
      </label>
      <span id={`${id}-which`} className="hint">
        Written in plain text in the file for {server}: {names}.{" "}
        {checked ? "Switchboard's configuration will keep only a reference." : "They will stay in plain text in Switchboard's configuration."}
      </span>
    </div>
  );
}

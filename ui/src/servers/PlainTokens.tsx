import { useId } from "react";
import type { PlainSecret } from "../bindings";
import { useT } from "../i18n";

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
  const t = useT();
  const id = useId();
  const names = tokens
    .map(({ key, place }) => (place === "env" ? t("serverForm.import.envToken", { key }) : t("serverForm.import.headerToken", { key })))
    .join(", ");
  return (
    <div className="import-tokens">
      <label className="check">
        <input type="checkbox" checked={checked} aria-describedby={`${id}-which`} onChange={(e) => onChange(e.target.checked)} />
        {t("serverForm.import.moveTokens", { count: tokens.length })}
      </label>
      <span id={`${id}-which`} className="hint">
        {checked
          ? t("serverForm.import.tokensToKeyring", { server, tokens: names })
          : t("serverForm.import.tokensStay", { server, tokens: names })}
      </span>
    </div>
  );
}

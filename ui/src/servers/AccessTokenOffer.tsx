import { useId, useState } from "react";
import { useT } from "../i18n";

/**
 * The simple way in where signing in cannot work (the authorization server lets this app
 * register in no way it supports): a personal access token made on the service's site,
 * kept in the keyring and sent as `Authorization: Bearer <token>`.
 */
export function AccessTokenOffer({ onUseToken }: { onUseToken(token: string): void }) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState("");
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        {t("serverForm.token.offer")}
      </button>
    );
  }
  const trimmed = token.trim();
  return (
    <form
      className="access-token"
      onSubmit={(e) => {
        e.preventDefault();
        if (trimmed !== "") onUseToken(trimmed);
      }}
    >
      <label htmlFor={`${id}-token`}>{t("serverForm.token.label")}</label>
      <input id={`${id}-token`} type="password" value={token} spellCheck={false} autoComplete="off"
        aria-describedby={`${id}-hint`} onChange={(e) => setToken(e.target.value)} />
      <p id={`${id}-hint`} className="hint">
        {t("serverForm.token.hint")}
      </p>
      <button type="submit" className="primary" disabled={trimmed === ""}>
        {t("serverForm.token.save")}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        {t("serverForm.token.cancel")}
      </button>
    </form>
  );
}

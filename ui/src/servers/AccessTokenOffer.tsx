import { useId, useState } from "react";

/**
 * The simple way in where signing in cannot work (the authorization server lets this app
 * register in no way it supports): a personal access token made on the service's site,
 * kept in the keyring and sent as `Authorization: Bearer <token>`.
 */
export function AccessTokenOffer({ onUseToken }: { onUseToken(token: string): void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState("");
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Use a personal access token instead
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
      <label htmlFor={`${id}-token`}>Personal access token</label>
      <input id={`${id}-token`} type="password" value={token} spellCheck={false} autoComplete="off"
        aria-describedby={`${id}-hint`} onChange={(e) => setToken(e.target.value)} />
      <p id={`${id}-hint`} className="hint">
        Made on the service's website. Kept in the keyring and sent as an Authorization header; the server restarts with it.
      </p>
      <button type="submit" className="primary" disabled={trimmed === ""}>
        Save and restart
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}

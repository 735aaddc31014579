import { useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";

/**
 * Whether the person's own calls of tools that may destroy are confirmed first. A call they
 * start is their decision already; this is the one extra safety they may keep or drop.
 */
export function OwnCallsSwitch() {
  const confirm = useFetched(() => commands.confirmsOwnDestructiveCalls(), ["config_changed"]);
  const [error, setError] = useState<string | null>(null);
  if (confirm.data === null) return null;
  const set = (on: boolean) =>
    commands
      .setConfirmOwnDestructiveCalls(on)
      .then(
        () => setError(null),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(confirm.refresh);
  return (
    <section className="own-calls" aria-labelledby="own-calls-title">
      <h2 id="own-calls-title">Your own calls</h2>
      <input
        id="own-calls-confirm"
        type="checkbox"
        checked={confirm.data}
        onChange={(e) => void set(e.target.checked)}
      />{" "}
      <label htmlFor="own-calls-confirm">Ask me before running a tool I call myself that may destroy data</label>
      <p className="muted">
        Tools you call from the Explorer run at once; with this on, those whose server does not say they are read-only
        or non-destructive ask first.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

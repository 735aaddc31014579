import { useState } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";

/**
 * Whether the person's own calls of tools that may destroy are confirmed first. A call they
 * start is their decision already; this is the one extra safety they may keep or drop.
 */
export function OwnCallsSwitch() {
  const t = useT();
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
      <h2 id="own-calls-title">{t("trust.own.title")}</h2>
      <input
        id="own-calls-confirm"
        type="checkbox"
        checked={confirm.data}
        onChange={(e) => void set(e.target.checked)}
      />{" "}
      <label htmlFor="own-calls-confirm">{t("trust.own.confirm")}</label>
      <p className="muted">{t("trust.own.note")}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

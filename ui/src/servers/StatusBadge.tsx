import { useState } from "react";
import type { ServerState_Serialize as ServerState } from "../bindings";
import { useT } from "../i18n";
import { reasonText, whyText } from "./reasons";
import { useNow } from "./time";
import "./servers.css";

type Tone = "ok" | "busy" | "warn" | "bad" | "off";

export interface StatusBadgeProps {
  state: ServerState | null;
  enabled: boolean;
  /** The current time in epoch ms; without it the badge reads the clock itself, every second. */
  now?: number;
  /** When the state began (epoch ms); without it, when the badge first saw it. */
  since?: number;
}

/** A server's state in words, with a colour that only repeats what the words say. */
export function StatusBadge({ state, enabled, now, since }: StatusBadgeProps) {
  const t = useT();
  const restarting = enabled && state?.state === "restarting" ? state : null;
  const seenAt = useFirstSeen(restarting ? `${restarting.attempt}|${restarting.backoffMs}|${JSON.stringify(restarting.reason)}` : null);
  const clock = useNow(restarting !== null && now === undefined);
  const current = now ?? clock;

  let tone: Tone;
  let text: string;
  let detail: string | undefined;
  if (!enabled) [tone, text] = ["off", t("servers.status.disabled")];
  else if (state === null) [tone, text] = ["off", t("servers.status.notStarted")];
  else
    switch (state.state) {
      case "starting":
        [tone, text] = ["busy", t("servers.status.starting")];
        break;
      case "running":
        [tone, text] = ["ok", t("servers.status.running")];
        break;
      case "restarting": {
        // A missing or zero start (an unknown one, as sent) falls back to when the badge saw it.
        const began = since !== undefined && since > 0 ? since : seenAt;
        const left = Math.ceil((began + state.backoffMs - current) / 1000);
        tone = "busy";
        text =
          left > 0
            ? t("servers.status.restartingIn", { seconds: left, attempt: state.attempt })
            : t("servers.status.restarting", { attempt: state.attempt });
        detail = reasonText(state.reason);
        break;
      }
      case "stopped":
        [tone, text] = ["off", t("servers.status.stopped")];
        break;
      case "failed":
        [tone, text] = ["bad", t("servers.status.failed", { reason: whyText(state) })];
        break;
      case "auth_required":
        [tone, text, detail] = ["warn", t("servers.status.signInNeeded"), reasonText(state.detail)];
        break;
    }
  // The badge may end in an ellipsis in a narrow list: its title holds all of it.
  const whole = detail && !text.includes(detail) ? t("servers.status.withDetail", { status: text, detail }) : text;
  return (
    <span className={`status-badge status-${tone}`} title={whole}>
      <span className="status-dot" aria-hidden="true" />
      <span className="status-text">{text}</span>
    </span>
  );
}

/** When `key` was first seen by this component, epoch ms; renewed whenever the key changes. */
function useFirstSeen(key: string | null): number {
  const [seen, setSeen] = useState(() => ({ key, at: Date.now() }));
  if (seen.key !== key) {
    // Adjusting state during render (not in an effect) keeps the first frame right.
    const next = { key, at: Date.now() };
    setSeen(next);
    return next.at;
  }
  return seen.at;
}

import { useId, type ReactNode } from "react";
import type { Implementation, ServerCapabilities } from "../mcp/schema";
import type { ServerState_Serialize as ServerState, SignedIn_Serialize as SignedIn } from "../bindings";
import { tx, useT } from "../i18n";
import { describeCapabilities } from "./capabilities";
import { AccessTokenOffer } from "./AccessTokenOffer";
import { InertMarkdown } from "./InertMarkdown";
import { eraText, reasonText, whyText } from "./reasons";
import { formatDateTime } from "./time";
import "./servers.css";

export interface ServerInfo {
  protocolVersion: string;
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string | null;
}

export interface ServerDetailsProps {
  name: string;
  info: ServerInfo | null;
  state: ServerState | null;
  signedIn?: SignedIn | null;
  onSignIn?(): void;
  onSignOut?(): void;
  /** Stores a personal access token for a server that cannot be signed in to. */
  onUseToken?(token: string): void;
  /** A sign-in waits for the person to finish it in the browser. */
  waitingForBrowser?: boolean;
  onCancelSignIn?(): void;
}

/** What a server said of itself in the handshake, and why it is down when it is. */
export function ServerDetails({
  name,
  info,
  state,
  signedIn,
  onSignIn,
  onSignOut,
  onUseToken,
  waitingForBrowser,
  onCancelSignIn,
}: ServerDetailsProps) {
  const t = useT();
  const id = useId();
  return (
    <section className="server-details" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{name}</h2>
      {waitingForBrowser ? (
        <div className="state-detail busy" data-testid="sign-in-waiting">
          <p>{t("servers.details.waitingForBrowser")}</p>
          {onCancelSignIn && (
            <button type="button" onClick={onCancelSignIn}>
              {t("servers.details.cancelSignIn")}
            </button>
          )}
        </div>
      ) : (
        <StateDetail state={state} onSignIn={onSignIn} onUseToken={onUseToken} />
      )}
      {signedIn && <SignedInLine signedIn={signedIn} onSignOut={onSignOut} />}
      {info ? (
        <>
          <Identity info={info} state={state} />
          <h3 id={`${id}-caps`}>{t("servers.details.capabilities")}</h3>
          <Capabilities capabilities={info.capabilities} labelledBy={`${id}-caps`} />
          {info.instructions && (
            <>
              <h3>{t("servers.details.instructions")}</h3>
              <InertMarkdown>{info.instructions}</InertMarkdown>
            </>
          )}
        </>
      ) : (
        <p className="muted">{t("servers.details.noHandshake")}</p>
      )}
    </section>
  );
}

/** Who the server says it is. */
function Identity({ info, state }: { info: ServerInfo; state: ServerState | null }) {
  const t = useT();
  const running = state?.state === "running" ? state : null;
  const implementation = info.serverInfo;
  // A server that gave no version (or only blanks) shows none, not a dangling word.
  const version = typeof implementation.version === "string" ? implementation.version.trim() : "";
  return (
    <dl className="facts">
      <dt>{t("servers.details.server")}</dt>
      <dd>
        {implementation.title
          ? t("servers.details.titleAndName", { title: implementation.title, name: implementation.name })
          : implementation.name}
        {version && (
          <>
            {" "}
            <span className="muted">{t("servers.details.version", { version })}</span>
          </>
        )}
      </dd>
      {implementation.description && (
        <>
          <dt>{t("servers.details.description")}</dt>
          <dd>{implementation.description}</dd>
        </>
      )}
      {implementation.websiteUrl && (
        <>
          <dt>{t("servers.details.website")}</dt>
          <dd className="mono">{implementation.websiteUrl}</dd>
        </>
      )}
      <dt>{t("servers.details.revision")}</dt>
      <dd>
        <span className="mono">{info.protocolVersion}</span>
        {running && (
          <span className="muted"> · {running.stateless ? t("servers.details.stateless") : t("servers.details.session")}</span>
        )}
      </dd>
      {running && (
        <>
          <dt>{t("servers.details.whyRevision")}</dt>
          <dd>{eraText(running.whyRevision)}</dd>
        </>
      )}
    </dl>
  );
}

function Capabilities({ capabilities, labelledBy }: { capabilities: ServerCapabilities; labelledBy: string }) {
  const t = useT();
  const chips = describeCapabilities(capabilities);
  if (chips.length === 0) return <p className="muted">{t("servers.details.noCapabilities")}</p>;
  return (
    <ul className="chips" aria-labelledby={labelledBy}>
      {chips.map((chip) => (
        <li key={chip.name} className="chip">
          {chip.name}
          {chip.details.length > 0 && (
            <span className="chip-detail">
              {t("servers.capability.details", { details: chip.details.join(t("servers.capability.separator")) })}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The parts of a state worth reading at length: why it failed, restarts, or wants authorization. */
function StateDetail({ state, onSignIn, onUseToken }: {
  state: ServerState | null;
  onSignIn?: (() => void) | undefined;
  onUseToken?: ((token: string) => void) | undefined;
}) {
  const t = useT();
  switch (state?.state) {
    case "failed":
      return (
        <div className="state-detail bad">
          <p>{tx("servers.details.failed", { strong, reason: whyText(state) })}</p>
          {state.stderrTail.length > 0 && (
            <>
              <p className="muted">{t("servers.details.stderrTail")}</p>
              <pre className="stderr-tail">{state.stderrTail.join("\n")}</pre>
            </>
          )}
        </div>
      );
    case "restarting":
      return (
        <p className="state-detail busy">
          {tx("servers.details.restarting", { strong, attempt: state.attempt, reason: reasonText(state.reason) })}
        </p>
      );
    case "auth_required":
      return (
        <div className="state-detail warn">
          <p>{tx("servers.details.signInNeeded", { strong, detail: reasonText(state.detail) })}</p>
          {onSignIn && !state.tokenInstead && (
            <button type="button" className="primary" onClick={onSignIn}>
              {t("servers.details.signIn")}
            </button>
          )}
          {onUseToken && state.tokenInstead && <AccessTokenOffer onUseToken={onUseToken} />}
        </div>
      );
    default:
      return null;
  }
}

/** Where the person is signed in, until when, and the way out. */
function SignedInLine({ signedIn, onSignOut }: { signedIn: SignedIn; onSignOut?: (() => void) | undefined }) {
  const t = useT();
  const host = hostOf(signedIn.issuer);
  return (
    <div className="state-detail signed-in">
      <p data-testid="signed-in">
        {signedIn.expiresMs === null
          ? tx("servers.details.signedIn", { strong, host })
          : tx("servers.details.signedInUntil", { strong, host, expires: formatDateTime(signedIn.expiresMs) })}
      </p>
      {onSignOut && (
        <button type="button" onClick={onSignOut}>
          {t("servers.details.signOut")}
        </button>
      )}
    </div>
  );
}

/** The bold part of a sentence. */
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** The host of an issuer URL (the whole text when it is not one). */
function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}

import { useMemo } from "react";
import { Modal } from "../dialogs/Modal";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { ServerName } from "./ServerName";
import { inspectUrl } from "./inspectUrl";
import type { PendingBase } from "./types";
import { FullAddress } from "./UrlElicitationDialog";
import "./approvals.css";

export interface SignInRequest extends PendingBase {
  /** The authorization server, as its metadata names it. */
  issuer: string;
  issuerHost: string;
  /** The MCP server the sign-in is for. */
  resource: string;
  scopes: string[];
  /**
   * The page the browser opens. Where a client is still to be registered (only once the
   * person agrees), its `client_id` reads `registered-when-you-sign-in`.
   */
  url: string;
}

export interface SignInDialogProps {
  request: SignInRequest;
  onAnswer(signIn: boolean): void;
}

/**
 * The person asked to sign in to a server: before the browser opens they see where they
 * would sign in (the authorization server's host set apart, as for any page a server
 * names), for which server, with which permissions, and the whole address. The button
 * takes clicks only once the dialog has been on screen a moment.
 */
export function SignInDialog({ request, onAnswer }: SignInDialogProps) {
  const inspection = inspectUrl(request.url);
  const { host, warnings, openable } = inspection;
  const signIn = () => onAnswer(true);
  const guard = useActivationGuard(
    useMemo(
      () => contentKey(request.id, request.server, request.issuer, request.url),
      [request.id, request.server, request.issuer, request.url],
    ),
  );
  return (
    <Modal
      title={
        <>
          Sign in to <ServerName name={request.server} />
        </>
      }
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="cancelled" />}
      onCancel={() => onAnswer(false)}
      onPrimary={guard.primary(openable && warnings.length === 0 ? signIn : undefined)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer(false)}>
            Cancel
          </button>
          <button
            type="button"
            className={warnings.length === 0 ? "button primary" : "button danger"}
            {...guard.accepting(!openable)}
            onClick={signIn}
          >
            Sign in
          </button>
        </>
      }
    >
      <p className="url-host-line">
        You will sign in at{" "}
        <strong className="url-host" data-testid="sign-in-host">
          {request.issuerHost}
        </strong>
        {host !== "" && host !== request.issuerHost && (
          <>
            {", on a page of "}
            <strong data-testid="url-host">{host}</strong>
          </>
        )}
      </p>
      <dl className="facts">
        <dt>Authorization server</dt>
        <dd className="mono">{request.issuer}</dd>
        <dt>For the server</dt>
        <dd className="mono">{request.resource}</dd>
        <dt>Permissions asked</dt>
        <dd data-testid="sign-in-scopes">
          {request.scopes.length > 0 ? request.scopes.join(", ") : "what the server grants by default"}
        </dd>
      </dl>
      <div className="form-field">
        <span className="form-label" id={`sign-in-${request.id}-label`}>
          Page that opens in your browser
        </span>
        <code className="url-full" aria-labelledby={`sign-in-${request.id}-label`} data-testid="url-full">
          <FullAddress inspection={inspection} />
        </code>
      </div>
      {warnings.length > 0 && (
        <ul className="url-warnings" aria-label="Warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {!openable && <p className="approval-alert">This address cannot be opened. Cancel the sign-in.</p>}
    </Modal>
  );
}

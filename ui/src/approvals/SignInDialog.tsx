import { useMemo } from "react";
import { Modal } from "../dialogs/Modal";
import { tx, useT } from "../i18n";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { ServerName } from "./ServerName";
import { inspectUrl, listed } from "./inspectUrl";
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
  const t = useT();
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
      title={tx("requests.signIn.title", { server: <ServerName name={request.server} /> })}
      subtitle={<Countdown deadlineMs={request.deadlineMs} outcome="cancelled" />}
      onCancel={() => onAnswer(false)}
      onPrimary={guard.primary(openable && warnings.length === 0 ? signIn : undefined)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer(false)}>
            {t("requests.action.cancel")}
          </button>
          <button
            type="button"
            className={warnings.length === 0 ? "button primary" : "button danger"}
            {...guard.accepting(!openable)}
            onClick={signIn}
          >
            {t("requests.signIn.signIn")}
          </button>
        </>
      }
    >
      <p className="url-host-line">
        {tx(host !== "" && host !== request.issuerHost ? "requests.signIn.atOnPage" : "requests.signIn.at", {
          issuerHost: (
            <strong className="url-host" data-testid="sign-in-host">
              {request.issuerHost}
            </strong>
          ),
          host: <strong data-testid="url-host">{host}</strong>,
        })}
      </p>
      <dl className="facts">
        <dt>{t("requests.signIn.issuer")}</dt>
        <dd className="mono">{request.issuer}</dd>
        <dt>{t("requests.signIn.resource")}</dt>
        <dd className="mono">{request.resource}</dd>
        <dt>{t("requests.signIn.scopes")}</dt>
        <dd data-testid="sign-in-scopes">
          {request.scopes.length > 0 ? listed(request.scopes) : t("requests.signIn.defaultScopes")}
        </dd>
      </dl>
      <div className="form-field">
        <span className="form-label" id={`sign-in-${request.id}-label`}>
          {t("requests.signIn.page")}
        </span>
        <code className="url-full" aria-labelledby={`sign-in-${request.id}-label`} data-testid="url-full">
          <FullAddress inspection={inspection} />
        </code>
      </div>
      {warnings.length > 0 && (
        <ul className="url-warnings" aria-label={t("requests.address.warnings")}>
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {!openable && <p className="approval-alert">{t("requests.signIn.unopenable")}</p>}
    </Modal>
  );
}

import { useMemo } from "react";
import type { ElicitRequestURLParams } from "../mcp/schema";
import { Modal } from "../dialogs/Modal";
import { tx, useT } from "../i18n";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { During } from "./During";
import { ServerName } from "./ServerName";
import { inspectUrl, type UrlInspection } from "./inspectUrl";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface UrlElicitationDialogProps {
  request: PendingBase & { params: ElicitRequestURLParams };
  onAnswer(action: "accept" | "decline" | "cancel"): void;
}

/**
 * A server asks the person to open a web page. The address is shown in full, never as a
 * live link, with its host set apart and every warning sign; it opens only on an explicit
 * click (Enter opens it only when nothing looks odd).
 */
export function UrlElicitationDialog({ request, onAnswer }: UrlElicitationDialogProps) {
  const t = useT();
  const { message, url } = request.params;
  const inspection = inspectUrl(url, message);
  const { warnings, openable } = inspection;
  const open = () => onAnswer("accept");
  const guard = useActivationGuard(
    useMemo(
      () => contentKey(request.id, request.server, request.params),
      [request.id, request.server, request.params],
    ),
  );
  return (
    <Modal
      title={tx("requests.url.title", { server: <ServerName name={request.server} /> })}
      subtitle={
        <>
          <During during={request.during} />
          <Countdown deadlineMs={request.deadlineMs} outcome="cancelled" />
        </>
      }
      onCancel={() => onAnswer("cancel")}
      onPrimary={guard.primary(openable && warnings.length === 0 ? open : undefined)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer("cancel")}>
            {t("requests.action.cancel")}
          </button>
          <button type="button" className="button" onClick={() => onAnswer("decline")}>
            {t("requests.action.decline")}
          </button>
          <button
            type="button"
            className={warnings.length === 0 ? "button primary" : "button danger"}
            {...guard.accepting(!openable)}
            onClick={open}
          >
            {t("requests.url.open")}
          </button>
        </>
      }
    >
      <section className="approval-section" aria-label={t("requests.message.label", { server: request.server })}>
        <p className="server-message">{message}</p>
      </section>
      <AddressShown inspection={inspection} id={`url-${request.id}`} fine={t("requests.url.fine")} />
      {!openable && <p className="approval-alert">{t("requests.url.unopenable")}</p>}
    </Modal>
  );
}

/**
 * A web address as the person is to judge it: its host set apart (and how it reads, when
 * it is an internationalized name), the whole address with the host marked, and every
 * warning sign, or `fine` when there is none.
 */
export function AddressShown({ inspection, id, fine }: { inspection: UrlInspection; id: string; fine: string }) {
  const t = useT();
  const { host, unicodeHost, warnings } = inspection;
  return (
    <>
      {host !== "" && (
        <p className="url-host-line">
          {tx(unicodeHost !== host ? "requests.address.onReadsAs" : "requests.address.on", {
            host: (
              <strong className="url-host" data-testid="url-host">
                {host}
              </strong>
            ),
            unicodeHost: <strong data-testid="url-host-unicode">{unicodeHost}</strong>,
          })}
        </p>
      )}
      <div className="form-field">
        <span className="form-label" id={`${id}-label`}>
          {t("requests.address.full")}
        </span>
        <code className="url-full" aria-labelledby={`${id}-label`} data-testid="url-full">
          <FullAddress inspection={inspection} />
        </code>
      </div>
      {warnings.length > 0 ? (
        <ul className="url-warnings" aria-label={t("requests.address.warnings")}>
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : (
        <p className="approval-note">{fine}</p>
      )}
    </>
  );
}

/** The address as text with its host marked; plain text when it has no host. */
export function FullAddress({ inspection }: { inspection: UrlInspection }) {
  const { href, host } = inspection;
  // The host follows "scheme://" and any "user:password@" of the authority.
  const authority = href.indexOf("//") + 2;
  const end = href.slice(authority).search(/[/?#]/);
  const userinfo = href.slice(authority, end < 0 ? undefined : authority + end).lastIndexOf("@");
  const at = authority + userinfo + 1;
  if (host === "" || authority < 2 || !href.startsWith(host, at)) return <>{href}</>;
  return (
    <>
      {href.slice(0, at)}
      <mark>{host}</mark>
      {href.slice(at + host.length)}
    </>
  );
}

import { useEffect, useId, useRef, useState } from "react";
import type { ServerSummary_Serialize as ServerSummary } from "../bindings";
import { t as translate, tx, useT } from "../i18n";
import { StatusBadge } from "./StatusBadge";
import "./servers.css";

export interface ServerListProps {
  servers: ServerSummary[];
  selected?: string;
  onSelect(name: string): void;
  onToggleEnabled(name: string, enabled: boolean): void;
  onRestart(name: string): void;
  /** Starts signing in to a server that needs it. */
  onSignIn(name: string): void;
  onRemove(name: string): void;
  onAdd(): void;
  onImport(): void;
}

/** Every configured server with its state, and the actions that apply to one of them. */
export function ServerList({ servers, selected, onSelect, onToggleEnabled, onRestart, onSignIn, onRemove, onAdd, onImport }: ServerListProps) {
  const t = useT();
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section className="server-list" aria-label={t("servers.list.label")}>
      <div className="server-list-toolbar">
        <button type="button" className="primary" onClick={onAdd}>
          {t("servers.list.add")}
        </button>
        <button type="button" onClick={onImport}>
          {t("servers.list.import")}
        </button>
      </div>
      {servers.length === 0 ? (
        <p className="muted">{t("servers.list.empty")}</p>
      ) : (
        <ul>
          {servers.map((server) => (
            <ServerRow
              key={server.name}
              server={server}
              selected={server.name === selected}
              confirming={confirming === server.name}
              onSelect={() => onSelect(server.name)}
              onToggleEnabled={(enabled) => onToggleEnabled(server.name, enabled)}
              onRestart={() => onRestart(server.name)}
              onSignIn={() => onSignIn(server.name)}
              onAskRemove={() => setConfirming(server.name)}
              onConfirmRemove={() => {
                setConfirming(null);
                onRemove(server.name);
              }}
              onKeep={() => setConfirming(null)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface ServerRowProps {
  server: ServerSummary;
  selected: boolean;
  confirming: boolean;
  onSelect(): void;
  onToggleEnabled(enabled: boolean): void;
  onRestart(): void;
  onSignIn(): void;
  onAskRemove(): void;
  onConfirmRemove(): void;
  onKeep(): void;
}

function ServerRow({ server, selected, confirming, onSelect, onToggleEnabled, onRestart, onSignIn, onAskRemove, onConfirmRemove, onKeep }: ServerRowProps) {
  const t = useT();
  const { name } = server;
  const id = useId();
  const removeRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // Focus follows the question: onto "Keep" when it opens, back to "Remove" when kept.
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (wasConfirming.current) removeRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  return (
    <li className={selected ? "server-row selected" : "server-row"} data-server={name}>
      {/* Named by the server alone, as it reads (short for the list's keyboard users);
          target and state, beside it, describe it. The button stretches over them to
          take a click anywhere on the card but its actions. */}
      <button
        type="button"
        className="server-select"
        aria-describedby={`${id}-target ${id}-state`}
        aria-current={selected ? "true" : undefined}
        onClick={onSelect}
      >
        <span className="server-name" title={name}>
          {name}
        </span>
      </button>
      <div className="server-facts">
        <span id={`${id}-target`} className="server-target" title={server.target}>
          <span className="server-transport">{server.transport === "http" ? "HTTP" : "stdio"}</span>
          {server.sandbox && (
            <>
              {" "}
              <span className="server-sandbox" title={sandboxSays(server.sandbox.network)}>
                {server.sandbox.network ? t("servers.list.sandboxedNetwork") : t("servers.list.sandboxed")}
              </span>
            </>
          )}{" "}
          {server.target}
        </span>
        <span id={`${id}-state`}>
          <StatusBadge state={server.state} enabled={server.enabled} since={server.sinceMs} />
        </span>
      </div>
      <div className="server-row-actions">
        <label className="switch">
          <input type="checkbox" role="switch" checked={server.enabled} onChange={(e) => onToggleEnabled(e.target.checked)} />
          <span>{t("servers.list.enabled")}</span>
          <span className="visually-hidden">{t("servers.list.enabledOf", { name })}</span>
        </label>
        {server.enabled && server.state?.state === "auth_required" && (
          <button type="button" className="primary" aria-label={t("servers.list.signInLabel", { name })} onClick={onSignIn}>
            {t("servers.list.signIn")}
          </button>
        )}
        <button type="button" aria-label={t("servers.list.restartLabel", { name })} disabled={!server.enabled} onClick={onRestart}>
          {t("servers.list.restart")}
        </button>
        <button type="button" ref={removeRef} aria-label={t("servers.list.removeLabel", { name })} aria-expanded={confirming} onClick={onAskRemove}>
          {t("servers.list.remove")}
        </button>
      </div>
      {confirming && (
        <div
          className="confirm"
          role="group"
          aria-label={t("servers.list.removeQuestion", { name })}
          onKeyDown={(e) => {
            if (e.key === "Escape") onKeep();
          }}
        >
          <p>{tx("servers.list.removeWarning", { strong: (chunks) => <strong>{chunks}</strong>, name })}</p>
          <button type="button" className="danger" onClick={onConfirmRemove}>
            {t("servers.list.removeYes", { name })}
          </button>
          <button type="button" ref={keepRef} onClick={onKeep}>
            {t("servers.list.keep")}
          </button>
        </div>
      )}
    </li>
  );
}

/** What a sandboxed server may reach, as its badge's tooltip says it. */
function sandboxSays(network: boolean): string {
  return network ? translate("servers.list.sandboxSaysNetwork") : translate("servers.list.sandboxSays");
}

import { useState } from "react";
import { commands, type ServerForm_Serialize as ServerForm } from "../bindings";
import { errorMessage } from "../errors";
import { ServerList } from "./ServerList";
import { ServerFormView, emptyServerForm } from "./ServerFormView";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";
import { ImportPanel } from "./ImportPanel";
import { ServerPanel } from "./ServerPanel";

type Mode = { kind: "view" } | { kind: "add" } | { kind: "edit"; form: ServerForm } | { kind: "import" };

export function ServersView() {
  const t = useT();
  const { data, refresh } = useFetched(() => commands.servers(), ["status", "servers_changed"]);
  const servers = data ?? [];
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [mode, setMode] = useState<Mode>({ kind: "view" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = servers.find((s) => s.name === selected) ?? servers[0];

  const act = (work: Promise<unknown>, after?: () => void) => {
    setBusy(true);
    setError(null);
    work.then(
      () => {
        refresh();
        after?.();
      },
      (err: unknown) => setError(errorMessage(err)),
    ).finally(() => setBusy(false));
  };

  const edit = (name: string) =>
    commands.serverForm(name).then(
      (form) => setMode({ kind: "edit", form }),
      (err: unknown) => setError(errorMessage(err)),
    );

  const save = (original: string | null) => (form: ServerForm) =>
    act(commands.saveServer(original, form), () => {
      setSelected(form.name);
      setMode({ kind: "view" });
    });

  return (
    <div className="servers">
      <ServerList
        servers={servers}
        {...(current ? { selected: current.name } : {})}
        onSelect={(name) => {
          setSelected(name);
          setMode({ kind: "view" });
        }}
        onToggleEnabled={(name, enabled) => act(commands.setServerEnabled(name, enabled))}
        onRestart={(name) => act(commands.restartServer(name))}
        onSignIn={(name) => act(commands.signIn(name))}
        onRemove={(name) => act(commands.removeServer(name))}
        onAdd={() => setMode({ kind: "add" })}
        onImport={() => setMode({ kind: "import" })}
      />
      <section className="servers-detail" aria-label={t("servers.view.label")}>
        {mode.kind === "add" && (
          <ServerFormView
            mode="add"
            initial={emptyServerForm()}
            existingNames={servers.map((s) => s.name)}
            onSave={save(null)}
            onCancel={() => setMode({ kind: "view" })}
            busy={busy}
            error={error}
          />
        )}
        {mode.kind === "edit" && (
          <ServerFormView
            mode="edit"
            initial={mode.form}
            existingNames={servers.map((s) => s.name)}
            onSave={save(mode.form.name)}
            onCancel={() => setMode({ kind: "view" })}
            busy={busy}
            error={error}
          />
        )}
        {mode.kind === "import" && <ImportPanel onDone={() => setMode({ kind: "view" })} />}
        {mode.kind === "view" && current && (
          <>
            <div className="server-actions">
              <button type="button" onClick={() => edit(current.name)}>
                {t("servers.view.edit", { name: current.name })}
              </button>
            </div>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <ServerPanel
              key={current.name}
              name={current.name}
              state={current.state}
              local={current.transport === "stdio"}
              sandbox={current.sandbox}
              onChangeSandbox={() => edit(current.name)}
            />
          </>
        )}
        {mode.kind === "view" && !current && <p className="muted">{t("servers.view.empty")}</p>}
      </section>
    </div>
  );
}

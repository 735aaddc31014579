import type { Argument, Input, KeyValueInput, Package, RegistryServer, Remote, Way } from "../bindings";
import { useT } from "../i18n";

interface Props {
  server: RegistryServer;
  onAdd(way: Way): void;
}

/** A server as the registry describes it: every word of it is the registry's, shown as text. */
export function ServerEntry({ server, onAdd }: Props) {
  const t = useT();
  const packages = server.packages ?? [];
  const remotes = server.remotes ?? [];
  return (
    <article className="registry-entry" aria-label={server.name}>
      <h2>{server.title ?? server.name}</h2>
      <p className="registry-name">
        <code>{server.name}</code> <span className="registry-version">{t("registry.entry.version", { version: server.version })}</span>
        {server.status && server.status !== "active" && <span className="registry-status"> {server.status}</span>}
      </p>
      {server.statusMessage && <p className="muted">{server.statusMessage}</p>}
      <p>{server.description}</p>
      {(server.websiteUrl || server.repository) && (
        <dl className="registry-facts">
          {server.websiteUrl && (
            <>
              <dt>{t("registry.entry.website")}</dt>
              <dd className="mono">{server.websiteUrl}</dd>
            </>
          )}
          {server.repository && (
            <>
              <dt>{t("registry.entry.source")}</dt>
              <dd className="mono">{server.repository.url}</dd>
            </>
          )}
        </dl>
      )}
      {packages.map((pkg, i) => (
        <PackageCard key={`p${i}`} pkg={pkg} onAdd={() => onAdd({ package: i })} />
      ))}
      {remotes.map((remote, i) => (
        <RemoteCard key={`r${i}`} remote={remote} onAdd={() => onAdd({ remote: i })} />
      ))}
      {packages.length + remotes.length === 0 && (
        <p className="muted">{t("registry.entry.noWay")}</p>
      )}
    </article>
  );
}

/** The kind of package, for the kinds Switchboard runs; null for the others. */
function runs(t: ReturnType<typeof useT>, registryType: string): string | null {
  switch (registryType) {
    case "npm":
      return t("registry.way.npm");
    case "pypi":
      return t("registry.way.pypi");
    case "oci":
      return t("registry.way.oci");
    default:
      return null;
  }
}

function PackageCard({ pkg, onAdd }: { pkg: Package; onAdd(): void }) {
  const t = useT();
  const kind = runs(t, pkg.registryType);
  const named = kind ?? t("registry.way.otherPackage", { type: pkg.registryType });
  const label = `${named} ${pkg.identifier}`;
  return (
    <section className="registry-way" aria-label={label}>
      <header>
        <h3>
          {named} <code>{pkg.identifier}</code>
          {pkg.version && <span className="registry-version"> {pkg.version}</span>}
        </h3>
        <button type="button" onClick={onAdd} disabled={!kind} title={kind ? undefined : t("registry.way.unsupported")}>
          {t("registry.way.add")}
        </button>
      </header>
      <p className="muted">{t("registry.way.runsHere", { transport: pkg.transport.type })}</p>
      <Declared title={t("registry.way.environment")} items={pkg.environmentVariables ?? []} />
      <Arguments args={[...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])]} />
    </section>
  );
}

function RemoteCard({ remote, onAdd }: { remote: Remote; onAdd(): void }) {
  const t = useT();
  const kind = remote.type === "sse" ? "HTTP+SSE" : "Streamable HTTP";
  return (
    <section className="registry-way" aria-label={t("registry.way.remoteLabel", { url: remote.url })}>
      <header>
        <h3>
          {t("registry.way.remote")} <code>{remote.url}</code>
        </h3>
        <button type="button" onClick={onAdd}>
          {t("registry.way.add")}
        </button>
      </header>
      <p className="muted">{t("registry.way.reached", { transport: kind })}</p>
      <Declared title={t("registry.way.headers")} items={remote.headers ?? []} />
      <InputList title={t("registry.way.inAddress")} items={Object.entries(remote.variables ?? {}).map(([name, input]) => ({ name, input }))} />
    </section>
  );
}

function Declared({ title, items }: { title: string; items: KeyValueInput[] }) {
  return <InputList title={title} items={items.map((kv) => ({ name: kv.name, input: kv }))} />;
}

function Arguments({ args }: { args: Argument[] }) {
  const t = useT();
  const items = args.map((arg) => ({
    name: arg.type === "named" ? arg.name : (arg.valueHint ?? t("registry.way.argumentValue")),
    input: arg,
  }));
  return <InputList title={t("registry.way.arguments")} items={items} />;
}

function InputList({ title, items }: { title: string; items: { name: string; input: Input }[] }) {
  const t = useT();
  if (items.length === 0) return null;
  return (
    <div className="registry-inputs">
      <h4>{title}</h4>
      <ul>
        {items.map(({ name, input }) => (
          <li key={name}>
            <code>{name}</code>
            {input.isRequired && <span className="tag">{t("registry.input.required")}</span>}
            {input.isSecret && <span className="tag">{t("registry.input.secret")}</span>}
            {input.value !== undefined && input.value !== null && <span className="muted"> = {input.value}</span>}
            {input.description && <span className="muted"> — {input.description}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

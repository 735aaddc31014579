import type { Argument, Input, KeyValueInput, Package, RegistryServer, Remote, Way } from "../bindings";

interface Props {
  server: RegistryServer;
  onAdd(way: Way): void;
}

/** A server as the registry describes it: every word of it is the registry's, shown as text. */
export function ServerEntry({ server, onAdd }: Props) {
  const packages = server.packages ?? [];
  const remotes = server.remotes ?? [];
  return (
    <article className="registry-entry" aria-label={server.name}>
      <h2>{server.title ?? server.name}</h2>
      <p className="registry-name">
        <code>{server.name}</code> <span className="registry-version">version {server.version}</span>
        {server.status && server.status !== "active" && <span className="registry-status"> {server.status}</span>}
      </p>
      {server.statusMessage && <p className="muted">{server.statusMessage}</p>}
      <p>{server.description}</p>
      {(server.websiteUrl || server.repository) && (
        <dl className="registry-facts">
          {server.websiteUrl && (
            <>
              <dt>Website</dt>
              <dd className="mono">{server.websiteUrl}</dd>
            </>
          )}
          {server.repository && (
            <>
              <dt>Source</dt>
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
        <p className="muted">The registry gives no package and no remote for this server: it cannot be added from here.</p>
      )}
    </article>
  );
}

const RUNS: Record<string, string> = { npm: "npm package", pypi: "PyPI package", oci: "container image" };

function PackageCard({ pkg, onAdd }: { pkg: Package; onAdd(): void }) {
  const kind = RUNS[pkg.registryType];
  const label = `${kind ?? `${pkg.registryType} package`} ${pkg.identifier}`;
  return (
    <section className="registry-way" aria-label={label}>
      <header>
        <h3>
          {kind ?? `${pkg.registryType} package`} <code>{pkg.identifier}</code>
          {pkg.version && <span className="registry-version"> {pkg.version}</span>}
        </h3>
        <button type="button" onClick={onAdd} disabled={!kind} title={kind ? undefined : "Switchboard does not run this kind of package"}>
          Add…
        </button>
      </header>
      <p className="muted">Runs on this machine over {pkg.transport.type}.</p>
      <Declared title="Environment variables" items={pkg.environmentVariables ?? []} />
      <Arguments args={[...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])]} />
    </section>
  );
}

function RemoteCard({ remote, onAdd }: { remote: Remote; onAdd(): void }) {
  const kind = remote.type === "sse" ? "HTTP+SSE" : "Streamable HTTP";
  return (
    <section className="registry-way" aria-label={`remote ${remote.url}`}>
      <header>
        <h3>
          Remote <code>{remote.url}</code>
        </h3>
        <button type="button" onClick={onAdd}>
          Add…
        </button>
      </header>
      <p className="muted">Reached over {kind}.</p>
      <Declared title="Headers" items={remote.headers ?? []} />
      <InputList title="In the address" items={Object.entries(remote.variables ?? {}).map(([name, input]) => ({ name, input }))} />
    </section>
  );
}

function Declared({ title, items }: { title: string; items: KeyValueInput[] }) {
  return <InputList title={title} items={items.map((kv) => ({ name: kv.name, input: kv }))} />;
}

function Arguments({ args }: { args: Argument[] }) {
  const items = args.map((arg) => ({ name: arg.type === "named" ? arg.name : (arg.valueHint ?? "value"), input: arg }));
  return <InputList title="Arguments" items={items} />;
}

function InputList({ title, items }: { title: string; items: { name: string; input: Input }[] }) {
  if (items.length === 0) return null;
  return (
    <div className="registry-inputs">
      <h4>{title}</h4>
      <ul>
        {items.map(({ name, input }) => (
          <li key={name}>
            <code>{name}</code>
            {input.isRequired && <span className="tag">required</span>}
            {input.isSecret && <span className="tag">secret</span>}
            {input.value !== undefined && input.value !== null && <span className="muted"> = {input.value}</span>}
            {input.description && <span className="muted"> — {input.description}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

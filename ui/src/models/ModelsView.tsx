import { useState } from "react";
import { commands, type ProviderForm } from "../bindings";
import { errorMessage } from "../errors";
import { useFetched } from "../host/updates";
import { useT } from "../i18n";
import { ProviderFormView, type ProviderFormValue } from "./ProviderFormView";
import { ProviderList } from "./ProviderList";
import { draftOf, emptyDraft, type ProviderDraft } from "./providerFormModel";

type Mode = { kind: "list" } | { kind: "edit"; original: string | null; draft: ProviderDraft };

/** The model providers: their settings, keys (in the keyring) and default models. */
export function ModelsView() {
  const t = useT();
  const { data, error: loadError, refresh } = useFetched(() => commands.providers(), ["providers_changed"]);
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const providers = data?.providers ?? [];

  const act = (work: Promise<unknown>, after?: () => void) => {
    setBusy(true);
    setError(null);
    work
      .then(
        () => {
          refresh();
          after?.();
        },
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(() => setBusy(false));
  };

  if (mode.kind === "edit") {
    const original = mode.original;
    return (
      <ProviderFormView
        // A fresh form for each provider opened.
        key={original ?? "(new)"}
        initial={mode.draft}
        original={original}
        existingNames={providers.map((p) => p.name)}
        busy={busy}
        error={error}
        onCancel={() => {
          setError(null);
          setMode({ kind: "list" });
        }}
        onSave={(form: ProviderFormValue) => act(commands.saveProvider(original, form as ProviderForm), () => setMode({ kind: "list" }))}
        onFetchModels={(form) => commands.fetchModels(original, form as ProviderForm)}
      />
    );
  }
  return (
    <div className="models">
      {loadError !== null && (
        <p className="error" role="alert">
          {t("models.view.loadFailed", { message: errorMessage(loadError) })}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ProviderList
        providers={providers}
        defaultProvider={data?.defaultProvider ?? null}
        onAdd={() => setMode({ kind: "edit", original: null, draft: emptyDraft() })}
        onEdit={(name) => {
          const provider = providers.find((p) => p.name === name);
          if (provider) setMode({ kind: "edit", original: name, draft: draftOf(provider) });
        }}
        onRemove={(name) => act(commands.removeProvider(name))}
        onMakeDefault={(name) => act(commands.setDefaultProvider(name))}
        onPrice={(provider, model, price) => act(commands.setModelPrice(provider, model, price))}
        onProfile={(provider, model, profile) => act(commands.setModelProfile(provider, model, profile))}
      />
    </div>
  );
}

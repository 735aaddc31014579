import type { ModelPrice, Profile, ProviderSummary_Serialize } from "../bindings";
import { ModelPrices } from "./ModelPrices";
import { ModelProfiles } from "./ModelProfiles";
import { tx, useT } from "../i18n";
import { keyStateText, protocolShortName } from "./providerFormModel";
import "./models.css";

export interface ProviderListProps {
  providers: ProviderSummary_Serialize[];
  defaultProvider: string | null;
  onAdd(): void;
  onEdit(name: string): void;
  onRemove(name: string): void;
  onMakeDefault(name: string | null): void;
  onPrice(provider: string, model: string, price: ModelPrice | null): void;
  onProfile(provider: string, model: string, profile: Profile | null): void;
}

/** The configured model providers: where each is, whether its key is stored (never the key), its default model. */
export function ProviderList({ providers, defaultProvider, onAdd, onEdit, onRemove, onMakeDefault, onPrice, onProfile }: ProviderListProps) {
  const t = useT();
  return (
    <section aria-labelledby="providers-title">
      <h2 id="providers-title">{t("models.list.title")}</h2>
      {providers.length === 0 ? (
        <p className="muted">{t("models.list.empty")}</p>
      ) : (
        <ul className="provider-list">
          {providers.map((p) => {
            const isDefault = p.name === defaultProvider;
            return (
              <li key={p.name} aria-label={p.name}>
                <div className="provider-head">
                  <strong>{p.name}</strong>
                  {isDefault && <span className="chip">{t("models.list.default")}</span>}
                  <span className="muted">{protocolShortName(p.protocol)}</span>
                  <code>{p.baseUrl}</code>
                </div>
                <div className="provider-head">
                  <span className={`key-state key-${p.key}`}>{keyStateText(p.key)}</span>
                  <span>
                    {tx("models.list.defaultModel", {
                      model: p.defaultModel ? <code>{p.defaultModel}</code> : <span className="muted">{t("models.list.noModel")}</span>,
                    })}
                  </span>
                </div>
                <ModelPrices
                  provider={p.name}
                  models={[...new Set([...(p.defaultModel ? [p.defaultModel] : []), ...p.models])]}
                  prices={p.prices}
                  onSave={(model, price) => onPrice(p.name, model, price)}
                />
                <ModelProfiles
                  provider={p.name}
                  models={[...new Set([...(p.defaultModel ? [p.defaultModel] : []), ...p.models])]}
                  profiles={p.profiles}
                  known={p.known}
                  onSave={(model, profile) => onProfile(p.name, model, profile)}
                />
                <div className="provider-actions">
                  <button type="button" onClick={() => onEdit(p.name)}>
                    {t("models.list.edit", { name: p.name })}
                  </button>
                  <button type="button" onClick={() => onMakeDefault(isDefault ? null : p.name)}>
                    {isDefault ? t("models.list.noDefault") : t("models.list.makeDefault")}
                  </button>
                  <button type="button" className="button danger" onClick={() => onRemove(p.name)}>
                    {t("models.list.remove", { name: p.name })}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" className="primary" onClick={onAdd}>
        {t("models.list.add")}
      </button>
    </section>
  );
}

import { useState } from "react";
import type { ModelPrice } from "../bindings";
import { useT } from "../i18n";

export interface ModelPricesProps {
  provider: string;
  /** The models the provider is known to offer: its default and those typed for it. */
  models: string[];
  prices: Partial<Record<string, ModelPrice>>;
  /** Keeps a model's prices (null: forgets them). */
  onSave(model: string, price: ModelPrice | null): void;
}

/** Dollars per million tokens as typed: a number of 0 or more, null when empty, or what is wrong. */
function dollars(text: string): number | null | "wrong" {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : "wrong";
}

/**
 * What the person pays for each model's tokens, in dollars per million: the chat counts its
 * conversations' cost by them. A model without prices is counted in tokens alone.
 */
export function ModelPrices({ provider, models, prices, onSave }: ModelPricesProps) {
  const t = useT();
  const known = [...new Set([...models, ...Object.keys(prices)])];
  const [extra, setExtra] = useState("");
  return (
    <details className="model-prices">
      <summary>{t("models.prices.title", { provider })}</summary>
      <table aria-label={t("models.prices.title", { provider })}>
        <thead>
          <tr>
            <th scope="col">{t("models.table.model")}</th>
            <th scope="col">{t("models.prices.input")}</th>
            <th scope="col">{t("models.prices.output")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("models.table.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {[...known, ...(extra.trim() === "" || known.includes(extra.trim()) ? [] : [extra.trim()])].map((model) => (
            <PriceRow key={model} model={model} price={prices[model] ?? null} onSave={(price) => onSave(model, price)} />
          ))}
        </tbody>
      </table>
      <label className="model-prices-other">
        {t("models.prices.another")} <input value={extra} placeholder={t("models.prices.anotherPlaceholder")} onChange={(e) => setExtra(e.target.value)} />
      </label>
    </details>
  );
}

function PriceRow({ model, price, onSave }: { model: string; price: ModelPrice | null; onSave(price: ModelPrice | null): void }) {
  const t = useT();
  const [input, setInput] = useState(price?.input.toString() ?? "");
  const [output, setOutput] = useState(price?.output.toString() ?? "");
  const [given, taken] = [dollars(input), dollars(output)];
  const wrong = given === "wrong" || taken === "wrong" || (given === null) !== (taken === null);
  const changed = input !== (price?.input.toString() ?? "") || output !== (price?.output.toString() ?? "");
  const save = () => {
    if (wrong) return;
    const cached = price?.cacheRead;
    onSave(given === null || taken === null ? null : { input: given, output: taken, ...(cached == null ? {} : { cacheRead: cached }) });
  };
  return (
    <tr>
      <th scope="row">
        <code>{model}</code>
      </th>
      <td>
        <input type="number" min={0} step="any" aria-label={t("models.prices.inputOf", { model })} value={input} onChange={(e) => setInput(e.target.value)} />
      </td>
      <td>
        <input type="number" min={0} step="any" aria-label={t("models.prices.outputOf", { model })} value={output} onChange={(e) => setOutput(e.target.value)} />
      </td>
      <td>
        <button type="button" className="small" disabled={wrong || !changed} onClick={save}>
          {t("models.table.save")}
        </button>
        {wrong && <span className="error"> {t("models.prices.wrong")}</span>}
      </td>
    </tr>
  );
}

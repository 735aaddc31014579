import type { KeyChange, KeyState, ProviderProtocol, ProviderSummary_Serialize } from "../bindings";
import { t, type MessageId } from "../i18n";

/** A provider's settings as the form holds them: the key as typed, or what to do with the stored one. */
export interface ProviderDraft {
  name: string;
  protocol: ProviderProtocol;
  baseUrl: string;
  /** One model id a line. */
  modelsText: string;
  defaultModel: string;
  /** What the keyring holds now, for the provider as saved. */
  keyState: KeyState;
  /** Typed: a new key; "" keeps the stored one (if any). */
  keyText: string;
  removeKey: boolean;
}

export interface Preset {
  label: string;
  protocol: ProviderProtocol;
  baseUrl: string;
  /** The name suggested when the form has none. */
  name: string;
  needsKey: boolean;
}

export const PRESETS: readonly Preset[] = [
  { label: "OpenAI", protocol: "openai_responses", baseUrl: "https://api.openai.com/v1", name: "openai", needsKey: true },
  { label: "Anthropic", protocol: "anthropic", baseUrl: "https://api.anthropic.com", name: "anthropic", needsKey: true },
  { label: "Ollama", protocol: "openai", baseUrl: "http://localhost:11434/v1", name: "ollama", needsKey: false },
  { label: "llama.cpp", protocol: "openai", baseUrl: "http://localhost:8080/v1", name: "llama-cpp", needsKey: false },
  { label: "LM Studio", protocol: "openai", baseUrl: "http://localhost:1234/v1", name: "lm-studio", needsKey: false },
  { label: "vLLM", protocol: "openai", baseUrl: "http://localhost:8000/v1", name: "vllm", needsKey: false },
];

/** The protocols, each with the message that names it (read when shown). */
export const PROTOCOLS: ReadonlyArray<{ value: ProviderProtocol; label: MessageId }> = [
  { value: "openai", label: "models.protocol.openai" },
  { value: "anthropic", label: "models.protocol.anthropic" },
  { value: "openai_responses", label: "models.protocol.openaiResponses" },
];

/** A protocol's short name, as the list of providers shows it. */
export function protocolShortName(protocol: ProviderProtocol): string {
  switch (protocol) {
    case "openai":
      return t("models.protocol.openai.short");
    case "anthropic":
      return t("models.protocol.anthropic.short");
    case "openai_responses":
      return t("models.protocol.openaiResponses.short");
  }
}

export function emptyDraft(): ProviderDraft {
  return { name: "", protocol: "openai", baseUrl: "", modelsText: "", defaultModel: "", keyState: "none", keyText: "", removeKey: false };
}

export function draftOf(provider: ProviderSummary_Serialize): ProviderDraft {
  return {
    name: provider.name,
    protocol: provider.protocol,
    baseUrl: provider.baseUrl,
    modelsText: provider.models.join("\n"),
    defaultModel: provider.defaultModel ?? "",
    keyState: provider.key,
    keyText: "",
    removeKey: false,
  };
}

export function keyChange(draft: ProviderDraft): KeyChange {
  if (draft.keyText.trim() !== "") return { kind: "set", value: draft.keyText.trim() };
  if (draft.removeKey) return { kind: "remove" };
  return { kind: "keep" };
}

/** What the host is sent: the form's settings, blank models dropped. */
export function formOf(draft: ProviderDraft) {
  const models = draft.modelsText
    .split("\n")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  const defaultModel = draft.defaultModel.trim();
  return {
    name: draft.name.trim(),
    protocol: draft.protocol,
    baseUrl: draft.baseUrl.trim(),
    models,
    defaultModel: defaultModel === "" ? null : defaultModel,
    apiKey: keyChange(draft),
  };
}

export type ProviderErrors = Partial<Record<"name" | "baseUrl", string>>;

/** What is wrong with the draft, in the window's language (called when the form is shown). */
export function validateDraft(draft: ProviderDraft, existingNames: string[], original: string | null): ProviderErrors {
  const errors: ProviderErrors = {};
  const name = draft.name.trim();
  if (name === "") errors.name = t("models.form.nameEmpty");
  else if (!/^[A-Za-z0-9._-]+$/.test(name)) errors.name = t("models.form.nameCharacters");
  else if (name !== original && existingNames.includes(name)) errors.name = t("models.form.nameTaken", { name });
  const url = draft.baseUrl.trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (url === "") errors.baseUrl = t("models.form.baseUrlEmpty");
  else if (!parsed || !["http:", "https:"].includes(parsed.protocol) || parsed.host === "")
    errors.baseUrl = t("models.form.baseUrlWrong");
  return errors;
}

/** How a key's state reads, in the window's language. */
export function keyStateText(state: KeyState): string {
  switch (state) {
    case "none":
      return t("models.key.none");
    case "stored":
      return t("models.key.stored");
    case "missing":
      return t("models.key.missing");
    case "not_own":
      return t("models.key.notOwn");
    case "unknown":
      return t("models.key.unknown");
  }
}

import type { KeyChange, KeyState, ProviderProtocol, ProviderSummary_Serialize } from "../bindings";

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

export const PROTOCOLS: ReadonlyArray<{ value: ProviderProtocol; label: string }> = [
  { value: "openai", label: "OpenAI-compatible Chat Completions" },
  { value: "anthropic", label: "Anthropic Messages" },
  { value: "openai_responses", label: "OpenAI Responses API" },
];

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

export function validateDraft(draft: ProviderDraft, existingNames: string[], original: string | null): ProviderErrors {
  const errors: ProviderErrors = {};
  const name = draft.name.trim();
  if (name === "") errors.name = "Enter a name.";
  else if (!/^[A-Za-z0-9._-]+$/.test(name)) errors.name = "Use only letters, digits, '-', '_' and '.'.";
  else if (name !== original && existingNames.includes(name)) errors.name = `A provider named ${name} already exists.`;
  const url = draft.baseUrl.trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (url === "") errors.baseUrl = "Enter the provider's base URL.";
  else if (!parsed || !["http:", "https:"].includes(parsed.protocol) || parsed.host === "")
    errors.baseUrl = "Enter an http:// or https:// URL.";
  return errors;
}

/** How a key's state reads. */
export function keyStateText(state: KeyState): string {
  switch (state) {
    case "none":
      return "No key";
    case "stored":
      return "Stored in keyring";
    case "missing":
      return "Key missing from the keyring";
    case "not_own":
      return "Names another provider's key (not used)";
    case "unknown":
      return "Keyring not available";
  }
}

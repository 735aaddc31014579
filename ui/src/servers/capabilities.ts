import { t } from "../i18n";
import type { ServerCapabilities } from "../mcp/schema";

/** One capability as a chip reads: its name and the options the server declared for it. */
export interface CapabilityChip {
  name: string;
  details: string[];
}

/**
 * The declared capabilities in the window's words, in a stable order; unknown keys are kept
 * under their own name. Call it while rendering.
 */
export function describeCapabilities(caps: ServerCapabilities): CapabilityChip[] {
  const chips: CapabilityChip[] = [];
  const listChanged = (on: boolean | undefined) => (on ? [t("servers.capability.listChanges")] : []);
  if (caps.tools) chips.push({ name: t("servers.capability.tools"), details: listChanged(caps.tools.listChanged) });
  if (caps.resources)
    chips.push({
      name: t("servers.capability.resources"),
      details: [...(caps.resources.subscribe ? [t("servers.capability.subscriptions")] : []), ...listChanged(caps.resources.listChanged)],
    });
  if (caps.prompts) chips.push({ name: t("servers.capability.prompts"), details: listChanged(caps.prompts.listChanged) });
  if (caps.logging) chips.push({ name: t("servers.capability.logging"), details: [] });
  if (caps.completions) chips.push({ name: t("servers.capability.completions"), details: [] });
  if (caps.tasks)
    chips.push({
      name: t("servers.capability.tasks"),
      details: [
        ...(caps.tasks.list ? [t("servers.capability.list")] : []),
        ...(caps.tasks.cancel ? [t("servers.capability.cancel")] : []),
        ...(caps.tasks.requests?.tools?.call ? [t("servers.capability.toolCalls")] : []),
      ],
    });
  if (caps.experimental && Object.keys(caps.experimental).length > 0)
    chips.push({ name: t("servers.capability.experimental"), details: Object.keys(caps.experimental) });
  const known = new Set(["tools", "resources", "prompts", "logging", "completions", "tasks", "experimental"]);
  // Later revisions add capabilities; show them rather than hide them.
  for (const key of Object.keys(caps)) if (!known.has(key)) chips.push({ name: key, details: [] });
  return chips;
}

import type { ServerCapabilities } from "../mcp/schema";

/** One capability as a chip reads: its name and the options the server declared for it. */
export interface CapabilityChip {
  name: string;
  details: string[];
}

/** The declared capabilities in words, in a stable order; unknown keys are kept under their own name. */
export function describeCapabilities(caps: ServerCapabilities): CapabilityChip[] {
  const chips: CapabilityChip[] = [];
  const listChanged = (on: boolean | undefined) => (on ? ["list changes"] : []);
  if (caps.tools) chips.push({ name: "Tools", details: listChanged(caps.tools.listChanged) });
  if (caps.resources)
    chips.push({
      name: "Resources",
      details: [...(caps.resources.subscribe ? ["subscriptions"] : []), ...listChanged(caps.resources.listChanged)],
    });
  if (caps.prompts) chips.push({ name: "Prompts", details: listChanged(caps.prompts.listChanged) });
  if (caps.logging) chips.push({ name: "Logging", details: [] });
  if (caps.completions) chips.push({ name: "Completions", details: [] });
  if (caps.tasks)
    chips.push({
      name: "Tasks",
      details: [
        ...(caps.tasks.list ? ["list"] : []),
        ...(caps.tasks.cancel ? ["cancel"] : []),
        ...(caps.tasks.requests?.tools?.call ? ["tool calls"] : []),
      ],
    });
  if (caps.experimental && Object.keys(caps.experimental).length > 0)
    chips.push({ name: "Experimental", details: Object.keys(caps.experimental) });
  const known = new Set(["tools", "resources", "prompts", "logging", "completions", "tasks", "experimental"]);
  // Later revisions add capabilities; show them rather than hide them.
  for (const key of Object.keys(caps)) if (!known.has(key)) chips.push({ name: key, details: [] });
  return chips;
}

import type { ComponentType } from "react";
import { ServersView } from "./ServersView";
import { ExplorerView } from "./ExplorerView";
import { ApprovalsView } from "./ApprovalsView";
import { ActivityView } from "./ActivityView";
import { TrustView } from "./TrustView";
import { ModelsView } from "./ModelsView";
import { ChatView } from "./ChatView";

export type ViewId = "servers" | "explorer" | "approvals" | "activity" | "trust" | "models" | "chat";

export interface View {
  id: ViewId;
  label: string;
  summary: string;
  component: ComponentType;
}

export const VIEWS: readonly [View, ...View[]] = [
  {
    id: "servers",
    label: "Servers",
    summary: "Every MCP server you connect, its health, logs and settings.",
    component: ServersView,
  },
  {
    id: "explorer",
    label: "Explorer",
    summary: "Tools, resources and prompts of all servers in one place.",
    component: ExplorerView,
  },
  {
    id: "approvals",
    label: "Approvals",
    summary: "Requests that wait for your decision: tool calls, sampling, roots, forms.",
    component: ApprovalsView,
  },
  {
    id: "activity",
    label: "Activity",
    summary: "What ran, who decided, and what is still in progress.",
    component: ActivityView,
  },
  {
    id: "trust",
    label: "Trust",
    summary: "Every standing rule and shared folder, with how often each was used; revoke any at once.",
    component: TrustView,
  },
  {
    id: "models",
    label: "Models",
    summary: "Model providers: where each is, its key (kept in the OS keyring) and its default model.",
    component: ModelsView,
  },
  {
    id: "chat",
    label: "Chat",
    summary: "Conversations with a model; every tool call it makes waits for your approval.",
    component: ChatView,
  },
];

import { lazy, type ComponentType } from "react";
import { ServersView } from "../servers/ServersView";

// Only the first view is in the page's first script. The others (and what only they use:
// the chat, the explorer's and the models' forms) load the first time the person opens
// them, so a window never taken there does not parse their code at start.
const ExplorerView = lazy(() => import("../explorer/ExplorerView").then((m) => ({ default: m.ExplorerView })));
const ApprovalsView = lazy(() => import("../approvals/ApprovalsView").then((m) => ({ default: m.ApprovalsView })));
const ActivityView = lazy(() => import("../activity/ActivityView").then((m) => ({ default: m.ActivityView })));
const TrustView = lazy(() => import("../trust/TrustView").then((m) => ({ default: m.TrustView })));
const ModelsView = lazy(() => import("../models/ModelsView").then((m) => ({ default: m.ModelsView })));
const AgentsView = lazy(() => import("../agents/AgentsView").then((m) => ({ default: m.AgentsView })));
const RegistryView = lazy(() => import("../registry/RegistryView").then((m) => ({ default: m.RegistryView })));
const SettingsView = lazy(() => import("../settings/SettingsView").then((m) => ({ default: m.SettingsView })));
const TasksView = lazy(() => import("../tasks/TasksView").then((m) => ({ default: m.TasksView })));
const ChatView = lazy(() => import("../chat/ChatView").then((m) => ({ default: m.ChatView })));

export type ViewId =
  | "servers"
  | "registry"
  | "explorer"
  | "approvals"
  | "activity"
  | "tasks"
  | "trust"
  | "models"
  | "chat"
  | "agents"
  | "settings";

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
    id: "registry",
    label: "Registry",
    summary: "Browse the MCP Registry and add a server from it: nothing is added before you review it.",
    component: RegistryView,
  },
  {
    id: "explorer",
    label: "Explorer",
    summary: "Tools, resources, prompts and skills of all servers in one place.",
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
    id: "tasks",
    label: "Tasks",
    summary: "Tool calls that run as tasks at their servers: where each stands, its result, and Cancel.",
    component: TasksView,
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
  {
    id: "agents",
    label: "Agents",
    summary: "Agents on this machine that reach your servers through Switchboard, each call approved by you.",
    component: AgentsView,
  },
  {
    id: "settings",
    label: "Settings",
    summary: "How Switchboard stays with you: in the tray when its window closes, and from when you log in.",
    component: SettingsView,
  },
];

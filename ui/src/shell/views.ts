import { lazy, type ComponentType } from "react";
import { ServersView } from "../servers/ServersView";
import { t } from "../i18n";

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
  component: ComponentType;
}

/** A view's name, in the window's language. */
export const viewLabel = (id: ViewId) => t(`shell.view.${id}.label` as const);

/** What a view is for, in the window's language. */
export const viewSummary = (id: ViewId) => t(`shell.view.${id}.summary` as const);

export const VIEWS: readonly [View, ...View[]] = [
  {
    id: "servers",
    component: ServersView,
  },
  {
    id: "registry",
    component: RegistryView,
  },
  {
    id: "explorer",
    component: ExplorerView,
  },
  {
    id: "approvals",
    component: ApprovalsView,
  },
  {
    id: "activity",
    component: ActivityView,
  },
  {
    id: "tasks",
    component: TasksView,
  },
  {
    id: "trust",
    component: TrustView,
  },
  {
    id: "models",
    component: ModelsView,
  },
  {
    id: "chat",
    component: ChatView,
  },
  {
    id: "agents",
    component: AgentsView,
  },
  {
    id: "settings",
    component: SettingsView,
  },
];

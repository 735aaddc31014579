import { tasks } from "./tasks";
import { activity } from "./activity";
import { trust } from "./trust";
import { host } from "./host";
import { registry } from "./registry";
import { models } from "./models";
import { agents } from "./agents";
import { dialogs } from "./dialogs";
import { time } from "./time";
import { settings } from "./settings";
import { shell } from "./shell";
import { serverForm } from "./serverForm";
import { servers } from "./servers";
import { approvals } from "./approvals";
import { chat } from "./chat";
import { explorer } from "./explorer";
import { forms } from "./forms";
import { content } from "./content";
import { views } from "./views";
import { requests } from "./requests";
import { errors } from "./errors";

/** Every English message, by id: the catalogue every other language matches. */
export const en = {
  ...shell,
  ...settings,
  ...tasks,
  ...activity,
  ...trust,
  ...host,
  ...registry,
  ...models,
  ...agents,
  ...dialogs,
  ...time,
  ...serverForm,
  ...servers,
  ...approvals,
  ...chat,
  ...explorer,
  ...forms,
  ...content,
  ...views,
  ...requests,
  ...errors,
} as const;

export type MessageId = keyof typeof en;

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
} as const;

export type MessageId = keyof typeof en;

import type { Catalogue } from "../catalogue";
import type { en } from "../en";
import { settings } from "./settings";
import { shell } from "./shell";

/** 所有简体中文消息，按 id 排列。 */
export const zhCN: Catalogue<typeof en> = { ...shell, ...settings };

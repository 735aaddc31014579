import { settings } from "./settings";
import { shell } from "./shell";

/** Every English message, by id: the catalogue every other language matches. */
export const en = { ...shell, ...settings } as const;

export type MessageId = keyof typeof en;

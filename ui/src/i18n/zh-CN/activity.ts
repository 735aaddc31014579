import type { Catalogue } from "../catalogue";
import type { activity as english } from "../en/activity";

export const activity: Catalogue<typeof english> = {};

import type { Catalogue } from "../catalogue";
import type { tasks as english } from "../en/tasks";

export const tasks: Catalogue<typeof english> = {};

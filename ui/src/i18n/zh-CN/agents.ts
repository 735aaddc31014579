import type { Catalogue } from "../catalogue";
import type { agents as english } from "../en/agents";

export const agents: Catalogue<typeof english> = {};

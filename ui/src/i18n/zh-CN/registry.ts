import type { Catalogue } from "../catalogue";
import type { registry as english } from "../en/registry";

export const registry: Catalogue<typeof english> = {};

import type { Catalogue } from "../catalogue";
import type { host as english } from "../en/host";

export const host: Catalogue<typeof english> = {};

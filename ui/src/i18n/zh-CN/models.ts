import type { Catalogue } from "../catalogue";
import type { models as english } from "../en/models";

export const models: Catalogue<typeof english> = {};

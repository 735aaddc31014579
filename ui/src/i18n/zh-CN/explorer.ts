import type { Catalogue } from "../catalogue";
import type { explorer as english } from "../en/explorer";

/** 浏览器。 */
export const explorer: Catalogue<typeof english> = {};

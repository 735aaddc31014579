import type { Catalogue } from "../catalogue";
import type { trust as english } from "../en/trust";

export const trust: Catalogue<typeof english> = {};

import type { Catalogue } from "../catalogue";
import type { dialogs as english } from "../en/dialogs";

export const dialogs: Catalogue<typeof english> = {};

import type { Catalogue } from "../catalogue";
import type { chat as english } from "../en/chat";

/** 对话。 */
export const chat: Catalogue<typeof english> = {};

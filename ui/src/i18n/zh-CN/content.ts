import type { Catalogue } from "../catalogue";
import type { content as english } from "../en/content";

/** 服务器发来的内容周围的文字。 */
export const content: Catalogue<typeof english> = {};

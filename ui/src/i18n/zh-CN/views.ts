import type { Catalogue } from "../catalogue";
import type { views as english } from "../en/views";

/** 服务器自有视图（MCP Apps）周围的文字。 */
export const views: Catalogue<typeof english> = {};

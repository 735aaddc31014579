import type { Catalogue } from "../catalogue";
import type { servers as english } from "../en/servers";

/** 服务器视图：列表、服务器面板、通信与日志。 */
export const servers: Catalogue<typeof english> = {};

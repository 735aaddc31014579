import type { Catalogue } from "../catalogue";
import type { approvals as english } from "../en/approvals";

/** 请求用户批准的对话框：工具调用、采样、队列。 */
export const approvals: Catalogue<typeof english> = {};

import type { Catalogue } from "../catalogue";
import type { approvals as english } from "../en/approvals";

/** 询问用户的对话框：工具调用、采样、读取、文件夹、登录、信息征询。 */
export const approvals: Catalogue<typeof english> = {};

import type { Catalogue } from "../catalogue";
import type { requests as english } from "../en/requests";

/** 请求用户共享的对话框：读取、文件夹、登录、信息征询。 */
export const requests: Catalogue<typeof english> = {};

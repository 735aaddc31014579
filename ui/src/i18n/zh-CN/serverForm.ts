import type { Catalogue } from "../catalogue";
import type { serverForm as english } from "../en/serverForm";

/** 服务器表单与导入。 */
export const serverForm: Catalogue<typeof english> = {};

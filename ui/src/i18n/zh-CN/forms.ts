import type { Catalogue } from "../catalogue";
import type { forms as english } from "../en/forms";

/** 由 schema 生成的表单。 */
export const forms: Catalogue<typeof english> = {};

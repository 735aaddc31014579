/** The words of forms made from a schema. */
export const forms = {} as const;

/** The models view's words. */
export const models = {} as const;

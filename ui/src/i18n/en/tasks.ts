/** The tasks view's words. */
export const tasks = {} as const;

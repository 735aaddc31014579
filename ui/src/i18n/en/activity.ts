/** The activity view's words. */
export const activity = {} as const;

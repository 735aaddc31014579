/** The dialogs' words. */
export const dialogs = {} as const;

/** The chat's words. */
export const chat = {} as const;

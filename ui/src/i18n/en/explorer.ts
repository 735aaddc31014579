/** The explorer's words. */
export const explorer = {} as const;

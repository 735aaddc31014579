/** The agents view's words. */
export const agents = {} as const;

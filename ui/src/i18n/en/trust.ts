/** The trust view's words. */
export const trust = {} as const;

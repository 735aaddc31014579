/** The registry view's words. */
export const registry = {} as const;

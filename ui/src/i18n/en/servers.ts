/** The servers view's words: the list, a server's panel, its traffic and log. */
export const servers = {} as const;

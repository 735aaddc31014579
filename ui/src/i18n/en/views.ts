/** The words around a server's own views (MCP Apps). */
export const views = {} as const;

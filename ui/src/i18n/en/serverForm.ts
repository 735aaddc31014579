/** The server form's and the import's words. */
export const serverForm = {} as const;

/** The words around content a server sent. */
export const content = {} as const;

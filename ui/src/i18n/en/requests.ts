/** The words of the dialogs that ask the person to share: reads, folders, sign-ins, elicitation. */
export const requests = {} as const;

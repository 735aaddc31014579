/** The words of the dialogs that ask the person: tool calls, sampling, reads, folders, sign-ins, elicitation. */
export const approvals = {} as const;

/** The words of the dialogs that ask the person to approve: tool calls, sampling, the queue. */
export const approvals = {} as const;

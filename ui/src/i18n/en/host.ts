/** The words of what the window shows over every view: the queued requests, the approval dialogs' frame. */
export const host = {} as const;

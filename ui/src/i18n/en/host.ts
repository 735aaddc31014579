/**
 * The words around the host's requests: the notice of those waiting in the queue, or withdrawn;
 * and the window's lists that follow their newest lines.
 */
export const host = {
  "host.queued.label": "Requests waiting",
  "host.queued.toolCall": "asks to call {tool}",
  "host.queued.read": "is asked for {subject}",
  "host.queued.sampling": "asks for a reply from a model",
  "host.queued.elicitation": "asks you: {message}",
  "host.queued.elicitationNoMessage": "asks you: a question",
  "host.queued.roots": "wants to know which folders it may see",
  "host.queued.agentRoots": "offers its folders to {servers}",
  "host.queued.signIn": "waits for you to sign in at {issuer}",
  "host.queued.others": " and {count, plural, one {# more request waits} other {# more requests wait}}",
  "host.queued.review": "Review",
  "host.queued.showAll": "Show all",
  "host.queued.later": "Later",
  "host.withdrawn.label": "Requests withdrawn",
  "host.withdrawn.roots": "withdrew its request to see your folders: it stopped waiting for your answer.",
  "host.withdrawn.sampling": "withdrew its request for a reply from a model: it stopped waiting for your answer.",
  "host.withdrawn.elicitation": "withdrew its question: it stopped waiting for your answer.",
  "host.withdrawn.agentRoots": "withdrew its offer of its folders: it stopped waiting for your answer.",
  "host.withdrawn.other": "withdrew its request: it stopped waiting for your answer.",
  "host.withdrawn.dismiss": "Dismiss",
  "host.followTail.jumpToLatest": "Jump to latest",
} as const;

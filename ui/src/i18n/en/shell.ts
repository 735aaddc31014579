/** The window's frame: the views' names and what each is for, the navigation, the status bar. */
export const shell = {
  "shell.nav.label": "Main",
  "shell.nav.waiting": "{count, plural, one {# waiting} other {# waiting}}",
  "shell.view.servers.label": "Servers",
  "shell.view.servers.summary": "Every MCP server you connect, its health, logs and settings.",
  "shell.view.registry.label": "Registry",
  "shell.view.registry.summary":
    "Browse the MCP Registry and add a server from it: nothing is added before you review it.",
  "shell.view.explorer.label": "Explorer",
  "shell.view.explorer.summary": "Tools, resources, prompts and skills of all servers in one place.",
  "shell.view.approvals.label": "Approvals",
  "shell.view.approvals.summary": "Requests that wait for your decision: tool calls, sampling, roots, forms.",
  "shell.view.activity.label": "Activity",
  "shell.view.activity.summary": "What ran, who decided, and what is still in progress.",
  "shell.view.tasks.label": "Tasks",
  "shell.view.tasks.summary":
    "Tool calls that run as tasks at their servers: where each stands, its result, and Cancel.",
  "shell.view.trust.label": "Trust",
  "shell.view.trust.summary":
    "Every standing rule and shared folder, with how often each was used; revoke any at once.",
  "shell.view.models.label": "Models",
  "shell.view.models.summary":
    "Model providers: where each is, its key (kept in the OS keyring) and its default model.",
  "shell.view.chat.label": "Chat",
  "shell.view.chat.summary": "Conversations with a model; every tool call it makes waits for your approval.",
  "shell.view.agents.label": "Agents",
  "shell.view.agents.summary":
    "Agents on this machine that reach your servers through Switchboard, each call approved by you.",
  "shell.view.settings.label": "Settings",
  "shell.view.settings.summary":
    "How Switchboard stays with you and speaks to you: the tray, starting at login, and the window's language and colours.",
  "shell.status.connecting": "Connecting to the host…",
  "shell.status.noAnswer": "The host did not answer: {message}",
  "shell.status.config": "Config:",
  "shell.status.revisions": "Protocol revisions spoken, newest first",
  "shell.status.configProblem":
    "The configuration file does not read: {problem}. The last good configuration keeps running; the file is read again when it is saved.",
  "shell.notice.movedAside.auditLog": "the audit log at {from} could not be read ({why}): it was moved to {to} and a new one begun",
  "shell.notice.movedAside.conversations": "the conversations at {from} could not be read ({why}): they were moved to {to} and a new file begun",
  "shell.notice.movedAside.tasks": "the tasks at {from} could not be read ({why}): they were moved to {to} and a new file begun",
  "shell.notice.notKept.auditLog": "{error}; the audit log cannot be kept",
  "shell.notice.notKept.conversations": "{error}; the conversations cannot be kept",
  "shell.notice.notKept.tasks": "{error}; the tasks cannot be kept",
  "shell.notice.retentionUnread": "the setting {key} must be a whole number (0 for no limit), not {value}; the audit trail keeps records 90 days, up to 100 MB",
} as const;

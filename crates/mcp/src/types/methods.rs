//! The method names of the stateful revisions (2024-11-05 to 2025-11-25).

/// Method names, requests first, then notifications.
pub mod method {
    // Requests.
    pub const PING: &str = "ping";
    pub const INITIALIZE: &str = "initialize";
    /// 2026-07-28: what the server speaks and offers, asked before anything else.
    pub const SERVER_DISCOVER: &str = "server/discover";
    /// 2026-07-28: a long-lived stream of the change notifications the client opts in to.
    pub const SUBSCRIPTIONS_LISTEN: &str = "subscriptions/listen";
    pub const TOOLS_LIST: &str = "tools/list";
    pub const TOOLS_CALL: &str = "tools/call";
    pub const RESOURCES_LIST: &str = "resources/list";
    pub const RESOURCES_READ: &str = "resources/read";
    pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
    pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
    pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";
    pub const PROMPTS_LIST: &str = "prompts/list";
    pub const PROMPTS_GET: &str = "prompts/get";
    pub const COMPLETION_COMPLETE: &str = "completion/complete";
    pub const LOGGING_SET_LEVEL: &str = "logging/setLevel";
    pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
    pub const ROOTS_LIST: &str = "roots/list";
    pub const ELICITATION_CREATE: &str = "elicitation/create";
    /// Tasks (2025-11-25, experimental): named here, their params are not modelled.
    pub const TASKS_GET: &str = "tasks/get";
    pub const TASKS_RESULT: &str = "tasks/result";
    pub const TASKS_CANCEL: &str = "tasks/cancel";
    pub const TASKS_LIST: &str = "tasks/list";
    /// The tasks extension (2026-07-28, in no revision's schema, so in none of the lists
    /// below): answers a task's questions.
    pub const TASKS_UPDATE: &str = "tasks/update";

    // Notifications.
    pub const INITIALIZED: &str = "notifications/initialized";
    pub const SUBSCRIPTIONS_ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";
    pub const CANCELLED: &str = "notifications/cancelled";
    pub const PROGRESS: &str = "notifications/progress";
    pub const LOGGING_MESSAGE: &str = "notifications/message";
    pub const RESOURCES_UPDATED: &str = "notifications/resources/updated";
    pub const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";
    pub const TOOLS_LIST_CHANGED: &str = "notifications/tools/list_changed";
    pub const PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";
    pub const ROOTS_LIST_CHANGED: &str = "notifications/roots/list_changed";
    pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
    pub const TASKS_STATUS: &str = "notifications/tasks/status";
    /// The tasks extension's status notification (in no revision's schema either).
    pub const TASKS: &str = "notifications/tasks";

    /// Every request method above.
    pub const REQUESTS: [&str; 22] = [
        PING,
        INITIALIZE,
        SERVER_DISCOVER,
        SUBSCRIPTIONS_LISTEN,
        TOOLS_LIST,
        TOOLS_CALL,
        RESOURCES_LIST,
        RESOURCES_READ,
        RESOURCES_TEMPLATES_LIST,
        RESOURCES_SUBSCRIBE,
        RESOURCES_UNSUBSCRIBE,
        PROMPTS_LIST,
        PROMPTS_GET,
        COMPLETION_COMPLETE,
        LOGGING_SET_LEVEL,
        SAMPLING_CREATE_MESSAGE,
        ROOTS_LIST,
        ELICITATION_CREATE,
        TASKS_GET,
        TASKS_RESULT,
        TASKS_CANCEL,
        TASKS_LIST,
    ];

    /// Every notification method above.
    pub const NOTIFICATIONS: [&str; 12] = [
        INITIALIZED,
        SUBSCRIPTIONS_ACKNOWLEDGED,
        CANCELLED,
        PROGRESS,
        LOGGING_MESSAGE,
        RESOURCES_UPDATED,
        RESOURCES_LIST_CHANGED,
        TOOLS_LIST_CHANGED,
        PROMPTS_LIST_CHANGED,
        ROOTS_LIST_CHANGED,
        ELICITATION_COMPLETE,
        TASKS_STATUS,
    ];
}

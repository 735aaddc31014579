//! Tasks (2025-11-25, experimental): a request the receiver runs on its own time. A
//! `tools/call` carrying `task: {ttl}` is answered at once with the task it became
//! ([`CreateTaskResult`]); its state is asked for with `tasks/get` ([`Task`]), its result
//! with `tasks/result` (what the call itself would have answered), and it is stopped with
//! `tasks/cancel`. A tool says whether it may or must be called so
//! ([`Tool::task_support`](super::Tool::task_support)).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

/// The `_meta` key that ties a message to the task it is part of.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// Where a task stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Working,
    /// The receiver waits for the requestor's answer to a request of its own.
    InputRequired,
    Completed,
    Failed,
    Cancelled,
    /// A status this crate does not know, kept as received.
    #[serde(untagged)]
    Other(String),
}

impl TaskStatus {
    /// Whether the task is over: its result, or its error, is final.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// A task as its receiver describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub task_id: String,
    pub status: TaskStatus,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub status_message: Option<String>,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub last_updated_at: String,
    /// How long the receiver keeps it, in milliseconds from its creation; `None`: for ever.
    #[serde(default, with = "lenient")]
    pub ttl: Option<u64>,
    /// How often the receiver suggests asking for it, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub poll_interval: Option<u64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The answer to a request that became a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreateTaskResult {
    pub task: Task,
    #[serde(
        rename = "_meta",
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient"
    )]
    pub meta: Option<Map<String, Value>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_task_reads_as_the_spec_writes_it_and_an_unknown_status_is_kept() {
        let created: CreateTaskResult = serde_json::from_value(json!({"task": {
            "taskId": "786512e2", "status": "working",
            "statusMessage": "The operation is now in progress.",
            "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:40:00Z",
            "ttl": 60000, "pollInterval": 5000
        }}))
        .unwrap();
        assert_eq!(created.task.status, TaskStatus::Working);
        assert_eq!(
            (created.task.ttl, created.task.poll_interval),
            (Some(60000), Some(5000))
        );
        assert!(!created.task.status.is_terminal());
        let odd: Task = serde_json::from_value(json!({
            "taskId": "t", "status": "paused", "ttl": null,
            "createdAt": "", "lastUpdatedAt": ""
        }))
        .unwrap();
        assert_eq!(odd.status, TaskStatus::Other("paused".into()));
        assert_eq!(odd.ttl, None);
        for done in ["completed", "failed", "cancelled"] {
            let status: TaskStatus = serde_json::from_value(json!(done)).unwrap();
            assert!(status.is_terminal(), "{done}");
        }
        let asked: TaskStatus = serde_json::from_value(json!("input_required")).unwrap();
        assert_eq!(asked, TaskStatus::InputRequired);
    }
}

//! Tasks (2025-11-25, experimental): a request the receiver runs on its own time. A
//! `tools/call` carrying `task: {ttl}` is answered at once with the task it became
//! ([`CreateTaskResult`]); its state is asked for with `tasks/get` ([`Task`]), its result
//! with `tasks/result` (what the call itself would have answered), and it is stopped with
//! `tasks/cancel`. A tool says whether it may or must be called so
//! ([`Tool::task_support`](super::Tool::task_support)).
//!
//! In 2026-07-28 tasks are an extension ([`TASKS_EXTENSION`], SEP-2663): a server may answer any
//! `tools/call` of a client that declares it with a task ([`TaskHandle`], `resultType:
//! "task"`) unasked; `tasks/get` tells the task with its result, error or questions inlined
//! ([`DetailedTask`]), `tasks/update` answers the questions, `tasks/cancel` stops it;
//! `tasks/result` and `tasks/list` are gone.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::Cursor;
use super::lenient;
use super::listing::{SkippedItem, page};
use crate::jsonrpc::ErrorObject;

/// The `_meta` key that ties a message to the task it is part of.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// The tasks extension of 2026-07-28, as a client or server declares it in `extensions`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The `resultType` of a result that is a task.
pub const RESULT_TYPE_TASK: &str = "task";

/// The time now as a task's `createdAt` and `lastUpdatedAt` write it (RFC 3339, UTC).
pub fn task_timestamp() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

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

/// One page of `tasks/list` (2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase")]
pub struct ListTasksResult {
    pub tasks: Vec<Task>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub next_cursor: Option<Cursor>,
    /// Tasks of this page that could not be read, left out of the list above.
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

page!(ListTasksResult, tasks: Task, "tasks");

/// A task as the extension tells it: the answer to a call that became one (marked
/// [`RESULT_TYPE_TASK`]), and the heart of what `tasks/get` answers. The durations are in
/// milliseconds; `ttl_ms` is sent even when `None` (kept for ever).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskHandle {
    pub task_id: String,
    pub status: TaskStatus,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub status_message: Option<String>,
    pub created_at: String,
    pub last_updated_at: String,
    #[serde(default)]
    pub ttl_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub poll_interval_ms: Option<u64>,
}

impl From<Task> for TaskHandle {
    /// The task as the extension tells it.
    fn from(task: Task) -> Self {
        Self {
            task_id: task.task_id,
            status: task.status,
            status_message: task.status_message,
            created_at: task.created_at,
            last_updated_at: task.last_updated_at,
            ttl_ms: task.ttl,
            poll_interval_ms: task.poll_interval,
        }
    }
}

impl TaskHandle {
    /// The task as 2025-11-25 describes one, for what follows tasks of either era.
    pub fn as_task(&self) -> Task {
        Task {
            task_id: self.task_id.clone(),
            status: self.status.clone(),
            status_message: self.status_message.clone(),
            created_at: self.created_at.clone(),
            last_updated_at: self.last_updated_at.clone(),
            ttl: self.ttl_ms,
            poll_interval: self.poll_interval_ms,
            extra: Map::new(),
        }
    }
}

/// What `tasks/get` answers in the extension: the task, and what its status holds: the
/// result of a completed one, the error of a failed one, the questions of one that waits
/// for input (by the server's keys, as an `input_required` result would ask them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DetailedTask {
    #[serde(flatten)]
    pub task: TaskHandle,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<ErrorObject>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub input_requests: Option<Map<String, Value>>,
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

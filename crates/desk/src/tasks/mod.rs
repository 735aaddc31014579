//! The tool calls that run as tasks at their servers (MCP 2025-11-25), kept in a SQLite
//! file of their own: the server, the tool and who called it, the task's last state as its
//! server described it, and how it ended (its result, or why it has none). The Tasks view
//! lists them across servers; a task still under way when Switchboard quit is asked after
//! again when it starts (see `Explorer::resume_tasks`).

mod file;

use std::path::Path;

use serde::Serialize;
use serde_json::Value;
use switchboard_core::clock::now_ms;
use switchboard_core::json::Json;
use switchboard_core::sqlite_file::{Book, FileError, FileFault, Kept, MovedAside};
use switchboard_mcp::types::Task;

use file::File;

#[derive(Debug, thiserror::Error)]
pub enum TaskBookError {
    #[error("the tasks {0}")]
    File(#[from] FileFault),
    #[error("there is no task {0}")]
    NotFound(i64),
}

impl FileError for TaskBookError {
    fn fault(&self) -> Option<&FileFault> {
        match self {
            Self::File(fault) => Some(fault),
            Self::NotFound(_) => None,
        }
    }
}

/// A task as the Tasks view shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TaskEntry {
    /// This host's number for it.
    pub id: i64,
    pub server: String,
    pub tool: String,
    /// Who called the tool, as the audit trail says it ("you", "the model in …").
    pub asked_by: String,
    /// The server's id for it.
    pub task_id: String,
    /// `working`, `input_required`, `completed`, `failed`, `cancelled`, or what the server
    /// said; `lost` when its server no longer knows it.
    pub status: String,
    pub status_message: Option<String>,
    /// When the call began, and when the task was last heard of (ms since the epoch).
    pub started_ms: i64,
    pub updated_ms: i64,
    /// How long its server keeps it, in milliseconds from its creation.
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub ttl_ms: Option<u64>,
    /// Its result, once it has one.
    pub result: Option<Json>,
    /// Why it has no result, when it ended without one.
    pub error: Option<String>,
}

impl TaskEntry {
    /// Whether it is over: nothing more will be heard of it.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
            || self.error.is_some()
            || matches!(
                self.status.as_str(),
                "completed" | "failed" | "cancelled" | "lost"
            )
    }
}

/// A call that became a task, as it is first heard of.
pub struct Began<'a> {
    pub server: &'a str,
    pub tool: &'a str,
    pub asked_by: &'a str,
}

/// Cheap to clone; every clone is the same file.
#[derive(Clone)]
pub struct TaskBook {
    file: Kept<File>,
}

impl TaskBook {
    pub fn open(path: &Path) -> Result<Self, TaskBookError> {
        Ok(Self {
            file: Kept::open(path, Book::Tasks, File::open)?,
        })
    }

    /// The damaged file this one replaced when it opened, if it did.
    pub fn moved_aside(&self) -> Option<&MovedAside> {
        self.file.moved_aside()
    }

    /// The task as its server now describes it, kept: new, or its earlier entry updated.
    pub async fn seen(&self, began: &Began<'_>, task: &Task) -> Result<TaskEntry, TaskBookError> {
        let (server, tool, asked_by) = (
            began.server.to_owned(),
            began.tool.to_owned(),
            began.asked_by.to_owned(),
        );
        let task = task.clone();
        let now = now_ms();
        self.file
            .call(move |f| f.seen(&server, &tool, &asked_by, &task, now))
            .await
    }

    /// The task `task_id` of `server` ended: with its result, or why it has none.
    pub async fn ended(
        &self,
        server: &str,
        task_id: &str,
        outcome: Result<Value, String>,
    ) -> Result<TaskEntry, TaskBookError> {
        let (server, task_id) = (server.to_owned(), task_id.to_owned());
        let now = now_ms();
        self.file
            .call(move |f| f.ended(&server, &task_id, outcome, now))
            .await
    }

    /// The task `id`, as kept.
    pub async fn get(&self, id: i64) -> Result<TaskEntry, TaskBookError> {
        self.file.call(move |f| f.get(id)).await
    }

    /// The latest tasks, the newest first.
    pub async fn list(&self) -> Result<Vec<TaskEntry>, TaskBookError> {
        self.file.call(File::list).await
    }

    /// The tasks not over, the oldest first: to be asked after again.
    pub async fn unfinished(&self) -> Result<Vec<TaskEntry>, TaskBookError> {
        self.file.call(File::unfinished).await
    }
}

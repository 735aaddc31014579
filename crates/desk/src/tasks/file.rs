//! The tasks' SQLite file, called synchronously: only ever from a blocking thread (see
//! [`super::TaskBook`]).

use std::path::Path;

use rusqlite::{OptionalExtension, params};
use serde_json::Value;
use switchboard_core::json::Json;
use switchboard_core::sqlite_file::{self, Db, FileFault};
use switchboard_mcp::types::{Task, TaskStatus};

use super::{TaskBookError, TaskEntry};

/// How many tasks the list shows.
const LISTED: i64 = 200;
/// The largest result kept, as JSON text: a larger one is kept as an error saying so.
const MOST_RESULT_BYTES: usize = 1 << 20;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    asked_by TEXT NOT NULL,
    task_id TEXT NOT NULL,
    status TEXT NOT NULL,
    status_message TEXT,
    started_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    ttl_ms INTEGER,
    result TEXT,
    error TEXT,
    UNIQUE (server, task_id)
);
";

const COLUMNS: &str = "id, server, tool, asked_by, task_id, status, status_message, started_ms,
    updated_ms, ttl_ms, result, error";

pub(super) struct File {
    db: Db<TaskBookError>,
}

fn status_text(status: &TaskStatus) -> String {
    match serde_json::to_value(status) {
        Ok(Value::String(text)) => text,
        _ => "unknown".to_owned(),
    }
}

fn entry(row: &rusqlite::Row<'_>) -> rusqlite::Result<TaskEntry> {
    let result: Option<String> = row.get(10)?;
    Ok(TaskEntry {
        id: row.get(0)?,
        server: row.get(1)?,
        tool: row.get(2)?,
        asked_by: row.get(3)?,
        task_id: row.get(4)?,
        status: row.get(5)?,
        status_message: row.get(6)?,
        started_ms: row.get(7)?,
        updated_ms: row.get(8)?,
        ttl_ms: row.get::<_, Option<i64>>(9)?.map(|t| t.max(0) as u64),
        result: result
            .and_then(|r| serde_json::from_str::<Value>(&r).ok())
            .map(Json),
        error: row.get(11)?,
    })
}

impl File {
    pub(super) fn open(path: &Path) -> Result<Self, TaskBookError> {
        let pragmas = [("journal_mode", "WAL"), ("synchronous", "FULL")];
        let db = sqlite_file::connect(path, &pragmas, SCHEMA).map_err(|source| {
            TaskBookError::from(FileFault::Database {
                path: path.display().to_string(),
                source,
            })
        })?;
        Ok(Self {
            db: Db::new(path, db),
        })
    }

    pub(super) fn seen(
        &self,
        server: &str,
        tool: &str,
        asked_by: &str,
        task: &Task,
        now: i64,
    ) -> Result<TaskEntry, TaskBookError> {
        let db = self.db.lock();
        db.execute(
            "INSERT INTO tasks (server, tool, asked_by, task_id, status, status_message,
                 started_ms, updated_ms, ttl_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8)
             ON CONFLICT (server, task_id) DO UPDATE SET
                 status = excluded.status, status_message = excluded.status_message,
                 updated_ms = excluded.updated_ms, ttl_ms = excluded.ttl_ms",
            params![
                server,
                tool,
                asked_by,
                task.task_id,
                status_text(&task.status),
                task.status_message,
                now,
                task.ttl.map(|t| t.min(i64::MAX as u64) as i64),
            ],
        )
        .map_err(|e| self.db.fail(e))?;
        drop(db);
        self.by_task(server, &task.task_id)
    }

    pub(super) fn ended(
        &self,
        server: &str,
        task_id: &str,
        outcome: Result<Value, String>,
        now: i64,
    ) -> Result<TaskEntry, TaskBookError> {
        let (result, error) = match outcome {
            Ok(result) => {
                let text = result.to_string();
                if text.len() > MOST_RESULT_BYTES {
                    (
                        None,
                        Some(format!(
                            "its result ({} bytes) is too large to keep",
                            text.len()
                        )),
                    )
                } else {
                    (Some(text), None)
                }
            }
            Err(why) => (None, Some(why)),
        };
        let db = self.db.lock();
        db.execute(
            // What the server last said of a task still under way (a question, a stage)
            // no longer holds once it ended; what it said of its end does.
            "UPDATE tasks SET result = ?3, error = ?4, updated_ms = ?5,
                 status_message = CASE WHEN status IN ('completed', 'failed', 'cancelled')
                     THEN status_message END,
                 status = CASE WHEN status IN ('completed', 'failed', 'cancelled') THEN status
                     WHEN ?4 IS NULL THEN 'completed' ELSE 'failed' END
             WHERE server = ?1 AND task_id = ?2",
            params![server, task_id, result, error, now],
        )
        .map_err(|e| self.db.fail(e))?;
        drop(db);
        self.by_task(server, task_id)
    }

    fn by_task(&self, server: &str, task_id: &str) -> Result<TaskEntry, TaskBookError> {
        let db = self.db.lock();
        db.query_row(
            &format!("SELECT {COLUMNS} FROM tasks WHERE server = ?1 AND task_id = ?2"),
            params![server, task_id],
            entry,
        )
        .map_err(|e| self.db.fail(e))
    }

    pub(super) fn get(&self, id: i64) -> Result<TaskEntry, TaskBookError> {
        let db = self.db.lock();
        db.query_row(
            &format!("SELECT {COLUMNS} FROM tasks WHERE id = ?1"),
            [id],
            entry,
        )
        .optional()
        .map_err(|e| self.db.fail(e))?
        .ok_or(TaskBookError::NotFound(id))
    }

    pub(super) fn list(&self) -> Result<Vec<TaskEntry>, TaskBookError> {
        self.query(&format!(
            "SELECT {COLUMNS} FROM tasks ORDER BY id DESC LIMIT {LISTED}"
        ))
    }

    pub(super) fn unfinished(&self) -> Result<Vec<TaskEntry>, TaskBookError> {
        self.query(&format!(
            "SELECT {COLUMNS} FROM tasks WHERE result IS NULL AND error IS NULL
                 AND status NOT IN ('completed', 'failed', 'cancelled', 'lost') ORDER BY id"
        ))
    }

    fn query(&self, sql: &str) -> Result<Vec<TaskEntry>, TaskBookError> {
        let db = self.db.lock();
        let mut statement = db.prepare(sql).map_err(|e| self.db.fail(e))?;
        let rows = statement
            .query_map([], entry)
            .map_err(|e| self.db.fail(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| self.db.fail(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task(status: &str, message: &str) -> Task {
        serde_json::from_value(
            json!({"taskId": "t-1", "status": status, "statusMessage": message,
            "createdAt": "", "lastUpdatedAt": "", "ttl": 300000}),
        )
        .unwrap()
    }

    #[test]
    fn a_task_is_kept_from_its_first_state_to_its_end_and_listed_until_then() {
        let dir = tempfile::tempdir().unwrap();
        let file = File::open(&dir.path().join("tasks.sqlite")).unwrap();
        let first = file
            .seen(
                "everything",
                "research",
                "you",
                &task("working", "Gathering"),
                10,
            )
            .unwrap();
        assert_eq!(
            (first.status.as_str(), first.ttl_ms, first.started_ms),
            ("working", Some(300000), 10)
        );
        let asking = file
            .seen(
                "everything",
                "research",
                "you",
                &task("input_required", "Clarify?"),
                20,
            )
            .unwrap();
        assert_eq!(asking.id, first.id, "the same task, updated");
        assert_eq!(
            (
                asking.status_message.as_deref(),
                asking.started_ms,
                asking.updated_ms
            ),
            (Some("Clarify?"), 10, 20)
        );
        assert_eq!(file.unfinished().unwrap().len(), 1);

        let done = file
            .ended("everything", "t-1", Ok(json!({"content": []})), 30)
            .unwrap();
        assert_eq!(done.status, "completed");
        assert_eq!(done.result, Some(Json(json!({"content": []}))));
        assert!(done.is_over());
        assert!(file.unfinished().unwrap().is_empty());

        let other = file
            .seen(
                "other",
                "slow",
                "an agent",
                &task("working", "Starting"),
                40,
            )
            .unwrap();
        let failed = file
            .ended("other", "t-1", Err("the server went away".into()), 50)
            .unwrap();
        assert_eq!((failed.id, failed.status.as_str()), (other.id, "failed"));
        let listed: Vec<i64> = file.list().unwrap().iter().map(|t| t.id).collect();
        assert_eq!(listed, vec![other.id, first.id], "the newest first");
        assert!(matches!(file.get(99), Err(TaskBookError::NotFound(99))));
    }
}

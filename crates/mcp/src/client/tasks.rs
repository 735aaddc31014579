//! Tool calls run as tasks (2025-11-25): the call is answered at once with the task it
//! became, which is then asked after (`tasks/get`) at the pace its server suggests, within
//! [`FASTEST_POLL`] and [`SLOWEST_POLL`], each status passed on as the call's progress, until
//! it ends (a state the server tells of unasked, `notifications/tasks/status`, is taken at
//! once); its result is then fetched (`tasks/result`), exactly what the call itself would
//! have answered. A task that waits for the requestor's input (`input_required`) has its
//! result asked for at once: the server's questions (a form, a sampling request) arrive as
//! any of its requests do and are answered by this client's handlers, while that request
//! waits. Cancelling the call, or its time running out, cancels the task (`tasks/cancel`).

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tokio::sync::broadcast::error::RecvError;

use super::{Client, ClientError};
use crate::connection::{Progress, RequestError, RequestOptions};
use crate::types::{
    CallToolRequestParams, CallToolResult, CreateTaskResult, Task, TaskStatus, method,
};

/// The soonest a task is asked after again, whatever its server suggests.
pub const FASTEST_POLL: Duration = Duration::from_secs(1);
/// The longest between two questions, whatever its server suggests.
pub const SLOWEST_POLL: Duration = Duration::from_secs(30);
/// How long the server is asked to keep a task: an hour from its creation.
pub const TASK_TTL_MS: u64 = 60 * 60 * 1000;

/// How long to wait before asking after `task` again.
pub fn poll_interval(task: &Task) -> Duration {
    task.poll_interval
        .map_or(FASTEST_POLL, Duration::from_millis)
        .clamp(FASTEST_POLL, SLOWEST_POLL)
}

impl Client {
    /// Whether this server runs tool calls as tasks (`tasks.requests.tools.call`).
    pub fn runs_tool_tasks(&self) -> bool {
        self.capabilities()
            .tasks
            .as_ref()
            .and_then(|t| t.get("requests"))
            .and_then(|r| r.get("tools"))
            .and_then(|t| t.get("call"))
            .is_some()
    }

    /// Calls the tool `name` as a task and waits for its end: its result, or why it has
    /// none. `options` bound the whole (`max_total`), carry its cancellation, and receive
    /// each status the task passes through as progress.
    pub async fn call_tool_as_task(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        self.require(self.runs_tool_tasks(), "tool calls as tasks")?;
        let mut params = match serde_json::to_value(CallToolRequestParams::new(name, arguments)) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        params.insert("task".into(), json!({ "ttl": TASK_TTL_MS }));
        let asking = RequestOptions {
            progress: None,
            ..options.clone()
        };
        let created = self.request(method::TOOLS_CALL, params, asking).await?;
        let created: CreateTaskResult =
            serde_json::from_value(created).map_err(|e| ClientError::InvalidResult {
                method: method::TOOLS_CALL,
                detail: format!("not the task the call became: {e}"),
            })?;
        self.follow(created.task, options).await
    }

    /// Follows the task `id` this client's server runs (one begun earlier, perhaps by
    /// another session) to its end, as [`Self::call_tool_as_task`] follows the task its
    /// call became.
    pub async fn follow_task(
        &self,
        id: &str,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        let task = self.get_task(id).await?;
        self.follow(task, options).await
    }

    /// Asks after `task` until it ends or asks for input, then fetches its result.
    async fn follow(
        &self,
        mut task: Task,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        let started = Instant::now();
        let mut told_unasked = self.task_status.subscribe();
        let mut told = 0.0;
        let out_of_time = |method: &str| {
            ClientError::Request(RequestError::Timeout {
                method: method.to_owned(),
                after: started.elapsed(),
            })
        };
        loop {
            if let Some(watching) = &options.task {
                let _ = watching.send(task.clone());
            }
            if let Some(progress) = &options.progress {
                told += 1.0;
                let said = task
                    .status_message
                    .clone()
                    .unwrap_or_else(|| status_name(&task.status));
                let _ = progress.try_send(Progress {
                    progress: told,
                    total: None,
                    message: Some(said),
                });
            }
            if task.status.is_terminal() || task.status == TaskStatus::InputRequired {
                break;
            }
            let wait = poll_interval(&task);
            if options
                .max_total
                .is_some_and(|most| started.elapsed() + wait > most)
            {
                self.cancel_task(&task.task_id).await;
                return Err(out_of_time(method::TOOLS_CALL));
            }
            let cancelled = async {
                match &options.cancel {
                    Some(cancel) => cancel.cancelled().await,
                    None => std::future::pending().await,
                }
            };
            let unasked = async {
                loop {
                    match told_unasked.recv().await {
                        Ok(told) if told.task_id == task.task_id => return Some(told),
                        Ok(_) | Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return None,
                    }
                }
            };
            let next = tokio::select! {
                () = cancelled => {
                    self.cancel_task(&task.task_id).await;
                    return Err(ClientError::Request(RequestError::Cancelled {
                        method: method::TOOLS_CALL.to_owned(),
                    }));
                }
                Some(told) = unasked => Some(told),
                () = tokio::time::sleep(wait) => None,
            };
            task = match next {
                Some(told) => told,
                None => self.get_task(&task.task_id).await?,
            };
        }
        let remaining = options
            .max_total
            .map(|most| most.saturating_sub(started.elapsed()));
        let fetching = RequestOptions {
            timeout: remaining.unwrap_or(options.timeout).max(options.timeout),
            max_total: remaining,
            progress: None,
            ..options.clone()
        };
        let result = self
            .request(method::TASKS_RESULT, task_params(&task.task_id), fetching)
            .await;
        if let Err(ClientError::Request(
            RequestError::Cancelled { .. } | RequestError::Timeout { .. },
        )) = &result
        {
            self.cancel_task(&task.task_id).await;
        }
        serde_json::from_value(result?).map_err(|e| ClientError::InvalidResult {
            method: method::TASKS_RESULT,
            detail: e.to_string(),
        })
    }

    /// The task `id` as its server describes it now (`tasks/get`).
    pub async fn get_task(&self, id: &str) -> Result<Task, ClientError> {
        let answer = self
            .request(method::TASKS_GET, task_params(id), self.request_options())
            .await?;
        serde_json::from_value(answer).map_err(|e| ClientError::InvalidResult {
            method: method::TASKS_GET,
            detail: e.to_string(),
        })
    }

    /// Every task the server keeps for this client (`tasks/list`, each page).
    pub async fn list_tasks(&self) -> Result<Vec<Task>, ClientError> {
        let mut tasks = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut params = Map::new();
            if let Some(cursor) = cursor.take() {
                params.insert("cursor".into(), Value::String(cursor));
            }
            let page = self
                .request(method::TASKS_LIST, params, self.request_options())
                .await?;
            let listed: Vec<Task> = serde_json::from_value(page["tasks"].clone()).map_err(|e| {
                ClientError::InvalidResult {
                    method: method::TASKS_LIST,
                    detail: e.to_string(),
                }
            })?;
            tasks.extend(listed);
            match page["nextCursor"].as_str() {
                Some(next) if !next.is_empty() => cursor = Some(next.to_owned()),
                _ => return Ok(tasks),
            }
        }
    }

    /// Asks the server to stop the task `id` (`tasks/cancel`); a task already over, or a
    /// server that does not answer, leaves nothing more to do.
    pub async fn cancel_task(&self, id: &str) {
        let cancelling = self
            .request(
                method::TASKS_CANCEL,
                task_params(id),
                self.request_options(),
            )
            .await;
        if let Err(e) = cancelling {
            tracing::debug!("the task {id} was not cancelled: {e}");
        }
    }
}

fn task_params(id: &str) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert("taskId".into(), Value::String(id.to_owned()));
    params
}

fn status_name(status: &TaskStatus) -> String {
    match status {
        TaskStatus::Working => "working".into(),
        TaskStatus::InputRequired => "waiting for input".into(),
        TaskStatus::Completed => "completed".into(),
        TaskStatus::Failed => "failed".into(),
        TaskStatus::Cancelled => "cancelled".into(),
        TaskStatus::Other(other) => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(poll: Option<u64>) -> Task {
        serde_json::from_value(
            json!({"taskId": "t", "status": "working", "pollInterval": poll,
            "createdAt": "", "lastUpdatedAt": "", "ttl": null}),
        )
        .unwrap()
    }

    #[test]
    fn a_task_is_asked_after_at_its_servers_pace_within_bounds() {
        assert_eq!(poll_interval(&task(Some(5000))), Duration::from_secs(5));
        assert_eq!(poll_interval(&task(Some(10))), FASTEST_POLL);
        assert_eq!(poll_interval(&task(Some(3_600_000))), SLOWEST_POLL);
        assert_eq!(poll_interval(&task(None)), FASTEST_POLL);
    }
}

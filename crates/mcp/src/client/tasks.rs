//! Tool calls run as tasks (2025-11-25): the call is answered at once with the task it
//! became, which is then asked after (`tasks/get`) at the pace its server suggests, within
//! [`FASTEST_POLL`] and [`SLOWEST_POLL`], each status passed on as the call's progress, until
//! it ends (a state the server tells of unasked, `notifications/tasks/status`, is taken at
//! once); its result is then fetched (`tasks/result`), exactly what the call itself would
//! have answered. A task that waits for the requestor's input (`input_required`) has its
//! result asked for at once: the server's questions (a form, a sampling request) arrive as
//! any of its requests do and are answered by this client's handlers, while that request
//! waits. Cancelling the call, or its time running out, cancels the task (`tasks/cancel`).
//!
//! The tasks extension (2026-07-28): a server may answer any tool call of a client that
//! declares it with a task, unasked ([`crate::types::TaskHandle`]). It is followed at the
//! same pace; `tasks/get` tells its result, error or questions inlined; its questions are
//! answered by this client's handler as a call's `input_required` ones are, and sent with
//! `tasks/update`; its end is the call's answer.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tokio::sync::broadcast::error::RecvError;

use super::{Client, ClientError, input_required};
use crate::connection::{Progress, RequestError, RequestOptions};
use crate::jsonrpc::{ErrorObject, code};
use crate::types::{
    CallToolRequestParams, CallToolResult, CreateTaskResult, DetailedTask, ListTasksResult, Task,
    TaskHandle, TaskStatus, method,
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
        if self.is_stateless() {
            let detailed = self.get_detailed(id).await?;
            let result = self.follow_detailed(detailed, options).await?;
            return serde_json::from_value(result).map_err(|e| ClientError::InvalidResult {
                method: method::TASKS_GET,
                detail: e.to_string(),
            });
        }
        let task = self.get_task(id).await?;
        self.follow(task, options).await
    }

    /// Asks after `task` until it ends or asks for input, then fetches its result.
    async fn follow(
        &self,
        mut task: Task,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        let mut pace = Pace::new(self, &options);
        loop {
            pace.report(&task);
            if task.status.is_terminal() || task.status == TaskStatus::InputRequired {
                break;
            }
            task = match pace.wait(&task).await? {
                Some(told) => told,
                None => self.get_task(&task.task_id).await?,
            };
        }
        let remaining = options
            .max_total
            .map(|most| most.saturating_sub(pace.started.elapsed()));
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

    /// Follows a task this client's server answered a tool call with, unasked (the
    /// 2026-07-28 extension), to its end: what the call itself would have answered. Its
    /// questions are answered by this client's handler, as a call's `input_required` ones
    /// are, and sent with `tasks/update`.
    pub(super) async fn follow_extension(
        &self,
        task: TaskHandle,
        options: RequestOptions,
    ) -> Result<Value, ClientError> {
        let detailed = DetailedTask {
            task,
            result: None,
            error: None,
            input_requests: None,
        };
        self.follow_detailed(detailed, options).await
    }

    async fn follow_detailed(
        &self,
        mut detailed: DetailedTask,
        options: RequestOptions,
    ) -> Result<Value, ClientError> {
        let mut pace = Pace::new(self, &options);
        let mut rounds = 0;
        loop {
            let task = detailed.task.as_task();
            let id = &task.task_id;
            pace.report(&task);
            match (&task.status, detailed.input_requests.take()) {
                (TaskStatus::Completed, _) => {
                    return detailed.result.ok_or_else(|| ClientError::InvalidResult {
                        method: method::TASKS_GET,
                        detail: "the task completed with no result".into(),
                    });
                }
                (TaskStatus::Failed, _) => {
                    let error = detailed.error.unwrap_or_else(|| {
                        ErrorObject::new(
                            code::INTERNAL_ERROR,
                            "the task failed, saying nothing of why",
                        )
                    });
                    return Err(ClientError::Request(RequestError::Server {
                        method: method::TOOLS_CALL.to_owned(),
                        error,
                    }));
                }
                (TaskStatus::Cancelled, _) => {
                    return Err(ClientError::Request(RequestError::Cancelled {
                        method: method::TOOLS_CALL.to_owned(),
                    }));
                }
                (TaskStatus::InputRequired, Some(asked)) if !asked.is_empty() => {
                    rounds += 1;
                    if rounds > input_required::MAX_INPUT_ROUNDS {
                        self.cancel_task(id).await;
                        return Err(ClientError::TooManyInputRounds {
                            method: method::TOOLS_CALL,
                            rounds: input_required::MAX_INPUT_ROUNDS,
                        });
                    }
                    let answers = input_required::answer(&*self.dispatch, &asked).await?;
                    let mut params = task_params(id);
                    params.insert("inputResponses".into(), Value::Object(answers));
                    self.request(method::TASKS_UPDATE, params, self.request_options())
                        .await?;
                }
                _ => {
                    // Told of a change or not, the task as it is now is asked for.
                    pace.wait(&task).await?;
                }
            }
            detailed = self.get_detailed(id).await?;
        }
    }

    /// The task `id` as its server describes it now (`tasks/get`).
    pub async fn get_task(&self, id: &str) -> Result<Task, ClientError> {
        if self.is_stateless() {
            return Ok(self.get_detailed(id).await?.task.as_task());
        }
        let answer = self
            .request(method::TASKS_GET, task_params(id), self.request_options())
            .await?;
        serde_json::from_value(answer).map_err(|e| ClientError::InvalidResult {
            method: method::TASKS_GET,
            detail: e.to_string(),
        })
    }

    /// The task `id` with what its status holds (`tasks/get` of the 2026-07-28 extension).
    async fn get_detailed(&self, id: &str) -> Result<DetailedTask, ClientError> {
        let answer = self
            .request(method::TASKS_GET, task_params(id), self.request_options())
            .await?;
        serde_json::from_value(answer).map_err(|e| ClientError::InvalidResult {
            method: method::TASKS_GET,
            detail: e.to_string(),
        })
    }

    /// Every task the server keeps for this client (`tasks/list`, each page). A task that
    /// does not read is left out, and said in the log.
    pub async fn list_tasks(&self) -> Result<Vec<Task>, ClientError> {
        let listed = self.walk::<ListTasksResult>(method::TASKS_LIST).await?;
        for skipped in &listed.skipped {
            tracing::warn!("{}: {skipped}", method::TASKS_LIST);
        }
        Ok(listed.items)
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

/// The pace of following one task: how long it has run, what was told of it as progress,
/// and when to ask after it next.
struct Pace<'a> {
    client: &'a Client,
    options: &'a RequestOptions,
    started: Instant,
    told: f64,
    told_unasked: tokio::sync::broadcast::Receiver<Task>,
}

impl<'a> Pace<'a> {
    fn new(client: &'a Client, options: &'a RequestOptions) -> Self {
        Self {
            client,
            options,
            started: Instant::now(),
            told: 0.0,
            told_unasked: client.task_status.subscribe(),
        }
    }

    /// Passes `task` on to whoever watches it, and as the call's progress.
    fn report(&mut self, task: &Task) {
        if let Some(watching) = &self.options.task {
            let _ = watching.send(task.clone());
        }
        if let Some(progress) = &self.options.progress {
            self.told += 1.0;
            let said = task
                .status_message
                .clone()
                .unwrap_or_else(|| status_name(&task.status));
            let _ = progress.try_send(Progress {
                progress: self.told,
                total: None,
                message: Some(said),
            });
        }
    }

    /// Waits until `task` is to be asked after again: the task as its server told of it
    /// meanwhile, if it did. A call cancelled, or out of time, cancels the task.
    async fn wait(&mut self, task: &Task) -> Result<Option<Task>, ClientError> {
        let wait = poll_interval(task);
        let client = self.client;
        if self
            .options
            .max_total
            .is_some_and(|most| self.started.elapsed() + wait > most)
        {
            client.cancel_task(&task.task_id).await;
            return Err(ClientError::Request(RequestError::Timeout {
                method: method::TOOLS_CALL.to_owned(),
                after: self.started.elapsed(),
            }));
        }
        let cancelled = async {
            match &self.options.cancel {
                Some(cancel) => cancel.cancelled().await,
                None => std::future::pending().await,
            }
        };
        let told_unasked = &mut self.told_unasked;
        let unasked = async {
            loop {
                match told_unasked.recv().await {
                    Ok(told) if told.task_id == task.task_id => return Some(told),
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return None,
                }
            }
        };
        tokio::select! {
            () = cancelled => {
                client.cancel_task(&task.task_id).await;
                Err(ClientError::Request(RequestError::Cancelled {
                    method: method::TOOLS_CALL.to_owned(),
                }))
            }
            Some(told) = unasked => Ok(Some(told)),
            () = tokio::time::sleep(wait) => Ok(None),
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

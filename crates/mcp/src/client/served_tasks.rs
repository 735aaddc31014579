//! The client's side of tasks (2025-11-25): a server may ask this client to run its sampling
//! or elicitation request as a task (`task: {ttl}` in its params, where the client declared
//! `tasks.requests`). The request is answered at once with the task it became, and run as
//! it would have been (the person asked, the model drafted); the server asks after it
//! (`tasks/get`, `tasks/list`), waits for its result (`tasks/result`: what the request
//! itself would have answered), or cancels it (`tasks/cancel`). A task is kept for the
//! time its server asked for, at most [`LONGEST_TTL`].

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Map, Value, json};
use std::sync::Mutex;
use tokio::sync::watch;

use crate::jsonrpc::ErrorObject;
use crate::transport::BoxFuture;
use crate::types::{RELATED_TASK, Task, TaskStatus};

/// The longest a task is kept after it is made, whatever its server asks.
pub const LONGEST_TTL: Duration = Duration::from_secs(60 * 60);
/// How often the server is told to ask after a task.
const POLL_MS: u64 = 1000;

type Outcome = Result<Value, ErrorObject>;

struct Served {
    task: Task,
    /// Set once the request is answered.
    outcome: watch::Receiver<Option<Outcome>>,
    work: tokio::task::AbortHandle,
}

/// The tasks this client runs for its server.
#[derive(Default)]
pub(super) struct ServedTasks {
    tasks: Mutex<HashMap<String, Served>>,
    made: AtomicU64,
}

use crate::types::task_timestamp as now;

/// Whether `params` ask for the request to run as a task, and for how long it is kept.
pub(super) fn asked_as_task(params: Option<&Value>) -> Option<Duration> {
    let task = params?.get("task")?;
    let asked = task
        .get("ttl")
        .and_then(Value::as_u64)
        .map(Duration::from_millis);
    Some(asked.unwrap_or(LONGEST_TTL).min(LONGEST_TTL))
}

fn task_id(params: Option<&Value>) -> Result<String, ErrorObject> {
    params
        .and_then(|p| p.get("taskId"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ErrorObject::invalid_params("the request names no taskId"))
}

fn encode(task: &Task) -> Value {
    serde_json::to_value(task).unwrap_or(Value::Null)
}

impl ServedTasks {
    /// Runs `work` as a task kept for `ttl`; the task it became, as the request's answer.
    pub(super) fn start(
        self: &Arc<Self>,
        work: BoxFuture<'static, Outcome>,
        ttl: Duration,
    ) -> Value {
        let id = format!(
            "switchboard-task-{}",
            self.made.fetch_add(1, Ordering::Relaxed) + 1
        );
        let at = now();
        let task = Task {
            task_id: id.clone(),
            status: TaskStatus::Working,
            status_message: Some("The request is being answered.".into()),
            created_at: at.clone(),
            last_updated_at: at,
            ttl: Some(ttl.as_millis() as u64),
            poll_interval: Some(POLL_MS),
            extra: Map::new(),
        };
        let (told, outcome) = watch::channel(None);
        let tasks = Arc::downgrade(self);
        let running = tokio::spawn({
            let id = id.clone();
            async move {
                let answered = work.await;
                if let Some(tasks) = tasks.upgrade() {
                    tasks.finish(&id, &answered);
                }
                let _ = told.send(Some(answered));
            }
        });
        let forget = Arc::downgrade(self);
        let forgotten = id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(ttl).await;
            if let Some(tasks) = forget.upgrade() {
                tasks
                    .tasks
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&forgotten);
            }
        });
        let answer = json!({ "task": encode(&task) });
        self.tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(
                id,
                Served {
                    task,
                    outcome,
                    work: running.abort_handle(),
                },
            );
        answer
    }

    /// The task's status once its request is answered: failed when it was an error.
    fn finish(&self, id: &str, answered: &Outcome) {
        if let Some(served) = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_mut(id)
            && served.task.status == TaskStatus::Working
        {
            served.task.status = if answered.is_ok() {
                TaskStatus::Completed
            } else {
                TaskStatus::Failed
            };
            served.task.status_message = None;
            served.task.last_updated_at = now();
        }
    }

    /// Answers the server's `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`.
    pub(super) fn answer(
        self: &Arc<Self>,
        method: &str,
        params: Option<Value>,
    ) -> BoxFuture<'static, Outcome> {
        let tasks = self.clone();
        let method = method.to_owned();
        Box::pin(async move {
            match method.as_str() {
                crate::types::method::TASKS_GET => tasks.get(&task_id(params.as_ref())?),
                crate::types::method::TASKS_LIST => Ok(tasks.list()),
                crate::types::method::TASKS_CANCEL => tasks.cancel(&task_id(params.as_ref())?),
                _ => tasks.result(&task_id(params.as_ref())?).await,
            }
        })
    }

    fn get(&self, id: &str) -> Outcome {
        let tasks = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let served = tasks.get(id).ok_or_else(|| unknown(id))?;
        Ok(encode(&served.task))
    }

    fn list(&self) -> Value {
        let tasks = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut listed: Vec<&Served> = tasks.values().collect();
        listed.sort_by(|a, b| a.task.created_at.cmp(&b.task.created_at));
        let listed: Vec<Value> = listed.iter().map(|s| encode(&s.task)).collect();
        json!({ "tasks": listed })
    }

    fn cancel(&self, id: &str) -> Outcome {
        let mut tasks = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let served = tasks.get_mut(id).ok_or_else(|| unknown(id))?;
        if served.task.status.is_terminal() {
            return Err(ErrorObject::invalid_params(format!(
                "task {id} is already over: it cannot be cancelled"
            )));
        }
        served.work.abort();
        served.task.status = TaskStatus::Cancelled;
        served.task.status_message = Some("Cancelled by the server.".into());
        served.task.last_updated_at = now();
        Ok(encode(&served.task))
    }

    /// The request's own answer, once it has one, tied to its task.
    async fn result(&self, id: &str) -> Outcome {
        let mut outcome = {
            let tasks = self
                .tasks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let served = tasks.get(id).ok_or_else(|| unknown(id))?;
            if served.task.status == TaskStatus::Cancelled {
                return Err(ErrorObject::invalid_params(format!(
                    "task {id} was cancelled"
                )));
            }
            served.outcome.clone()
        };
        let answered = outcome
            .wait_for(Option::is_some)
            .await
            .map_err(|_| ErrorObject::invalid_params(format!("task {id} was cancelled")))?
            .clone()
            .unwrap_or_else(|| Err(unknown(id)));
        let mut result = answered?;
        if let Value::Object(fields) = &mut result {
            let meta = fields.entry("_meta").or_insert_with(|| json!({}));
            if let Value::Object(meta) = meta {
                meta.insert(RELATED_TASK.into(), json!({ "taskId": id }));
            }
        }
        Ok(result)
    }
}

fn unknown(id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("there is no task {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_run_as_a_task_is_asked_after_waited_for_and_cancelled() {
        let tasks = Arc::new(ServedTasks::default());
        let (answer, answered) = tokio::sync::oneshot::channel::<()>();
        let created = tasks.start(
            Box::pin(async move {
                let _ = answered.await;
                Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
            }),
            Duration::from_secs(60),
        );
        let id = created["task"]["taskId"].as_str().unwrap().to_owned();
        assert_eq!(created["task"]["status"], "working");
        assert_eq!(created["task"]["ttl"], 60_000);
        let params = Some(json!({"taskId": id}));
        let waiting = tasks.answer("tasks/result", params.clone());
        let got = tasks.answer("tasks/get", params.clone()).await.unwrap();
        assert_eq!(got["status"], "working");
        answer.send(()).unwrap();
        let result = waiting.await.unwrap();
        assert_eq!(result["content"]["name"], "Ada");
        assert_eq!(result["_meta"][RELATED_TASK]["taskId"], id.as_str());
        let got = tasks.answer("tasks/get", params.clone()).await.unwrap();
        assert_eq!(got["status"], "completed");
        let refused = tasks.answer("tasks/cancel", params).await.unwrap_err();
        assert!(refused.message.contains("already over"), "{refused:?}");

        let forever = tasks.start(Box::pin(std::future::pending()), Duration::from_secs(60));
        let params = Some(json!({"taskId": forever["task"]["taskId"]}));
        let cancelled = tasks.answer("tasks/cancel", params.clone()).await.unwrap();
        assert_eq!(cancelled["status"], "cancelled");
        assert!(tasks.answer("tasks/result", params).await.is_err());
        let listed = tasks.answer("tasks/list", None).await.unwrap();
        assert_eq!(listed["tasks"].as_array().map(Vec::len), Some(2));
        assert!(
            tasks
                .answer("tasks/get", Some(json!({"taskId": "nope"})))
                .await
                .is_err()
        );
        assert_eq!(
            asked_as_task(Some(&json!({"task": {"ttl": 600_000}}))),
            Some(Duration::from_secs(600))
        );
        assert_eq!(
            asked_as_task(Some(&json!({"task": {"ttl": 99_999_999}}))),
            Some(LONGEST_TTL)
        );
        assert_eq!(asked_as_task(Some(&json!({"message": "hi"}))), None);
    }
}

//! An agent's tool calls as tasks: the gateway answers the call at once with a task of its
//! own, runs the call on (through the gate once, as any call of the agent's, at the server
//! as a task or not, as the server runs it), and the agent asks after it.
//!
//! - 2025-11-25: a call that asks to be a task (`task: {ttl}`) of a tool that may run as one
//!   is answered with `{task}`; `tasks/get`, `tasks/result` (waits for the end: what the
//!   call itself would have answered), `tasks/list` and `tasks/cancel` follow it. The
//!   server's questions meanwhile reach the agent over its session, as a plain call's do.
//! - 2026-07-28, the tasks extension: a call of an agent that declares the extension is
//!   answered as it ends or asks, if it does within [`PATIENCE`]; otherwise with the task it
//!   becomes ([`CreatedTask::Handle`]). `tasks/get` tells the task with its result, error
//!   or questions inlined; `tasks/update` answers the questions (each answer taken at once,
//!   the call taken up again once every one is in); `tasks/cancel` stops it. An agent that
//!   does not declare the extension is refused these (-32021), and its calls are answered
//!   as they end, whatever the tool: the gateway can serve a tool that must run as a task at
//!   its server without one, so it does not refuse it (the extension asks -32021 only of a
//!   server that cannot).
//!
//! Tasks are the agent's (its name is the authorization context): another agent finds none
//! of them. They are kept for their time to live ([`KEPT_FOR`] at most) from their
//! creation, then forgotten, and a task still running then is cancelled.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::server::handler::{CreatedTask, Rounds};
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::{
    CallToolResult, CreateTaskResult, DetailedTask, Meta, RELATED_TASK, TASKS_EXTENSION, Task,
    TaskHandle, TaskStatus, method, task_timestamp as now,
};
use tokio::sync::{oneshot, watch};

use super::Session;
use super::calls::Outcome;
use super::era::Era;

/// How long a call of an agent that takes tasks may run before it is answered with the
/// task it becomes: a call that ends or asks sooner is answered as it is.
pub(super) const PATIENCE: Duration = Duration::from_millis(500);
/// The longest a task is kept, from its creation.
const KEPT_FOR: Duration = Duration::from_secs(60 * 60);
/// How often an agent is told to ask after its task.
const POLL_MS: u64 = 500;

/// How a call becomes a task, when it does.
pub(super) enum AsTask {
    /// 2025-11-25: the agent asked, to be kept this long.
    Asked(Duration),
    /// The extension: the agent takes one, should the call run long.
    Taken,
}

/// What a call ended with, as the agent is told.
type Ended = Result<CallToolResult, ErrorObject>;

/// A task as it stands.
#[derive(Clone)]
struct Standing {
    status: TaskStatus,
    last_updated_at: String,
    ended: Option<Ended>,
    /// The questions not answered yet, by the server's keys.
    asked: Option<Map<String, Value>>,
}

/// The questions a task waits on: the answers in so far, and where they go once complete.
struct Waiting {
    answers: Map<String, Value>,
    /// The parked call's state, to forget it should the task be cancelled.
    parked: Option<String>,
    resume: oneshot::Sender<Map<String, Value>>,
}

struct Kept {
    agent: String,
    created_at: String,
    ttl: Duration,
    standing: watch::Sender<Standing>,
    waiting: Option<Waiting>,
    driver: Option<tokio::task::AbortHandle>,
}

impl Kept {
    fn task(&self, id: &str) -> Task {
        let standing = self.standing.borrow();
        Task {
            task_id: id.to_owned(),
            status: standing.status.clone(),
            status_message: message(&standing),
            created_at: self.created_at.clone(),
            last_updated_at: standing.last_updated_at.clone(),
            ttl: Some(self.ttl.as_millis() as u64),
            poll_interval: Some(POLL_MS),
            extra: Map::new(),
        }
    }

    fn handle(&self, id: &str) -> TaskHandle {
        self.task(id).into()
    }

    /// Moves the task on, unless it is over already: a task's end is final.
    fn update(&self, change: impl FnOnce(&mut Standing)) {
        self.standing.send_if_modified(|standing| {
            if standing.status.is_terminal() {
                return false;
            }
            change(standing);
            standing.last_updated_at = now();
            true
        });
    }
}

/// What a failed task's status says; nothing for the others.
fn message(standing: &Standing) -> Option<String> {
    match (&standing.status, &standing.ended) {
        (TaskStatus::Failed, Some(Err(error))) => Some(error.message.clone()),
        (TaskStatus::Cancelled, _) => Some("Cancelled by the agent.".into()),
        (TaskStatus::InputRequired, _) => Some("Waiting for the agent's answers.".into()),
        _ => None,
    }
}

/// The tasks of the agents of one transport, by id.
#[derive(Default)]
pub(crate) struct AgentTasks {
    kept: Mutex<HashMap<String, Kept>>,
}

fn unknown(id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "no task {id:?} of this agent: it is unknown, or was forgotten after its time to live"
    ))
}

/// A call's outcome to come: what [`Session::follow`] and [`Session::resume`] give.
pub(super) type Coming = BoxFuture<'static, Result<Outcome, ErrorObject>>;

impl Session {
    /// Runs a call of the agent's (`coming`) as a task, as `how` says: the task the agent is
    /// answered with, or (the extension) the call's own answer should it come within
    /// [`PATIENCE`].
    pub(super) async fn as_task(
        &self,
        how: AsTask,
        mut coming: Coming,
        what: String,
        era: Era,
    ) -> Result<Rounds<CallToolResult>, ErrorObject> {
        let ttl = match how {
            AsTask::Asked(ttl) => ttl.min(KEPT_FOR),
            AsTask::Taken => {
                tokio::select! {
                    outcome = &mut coming => return outcome?.told(super::tools::told),
                    () = tokio::time::sleep(PATIENCE) => KEPT_FOR,
                }
            }
        };
        let id = super::asks::handle();
        let at = now();
        let (standing, _) = watch::channel(Standing {
            status: TaskStatus::Working,
            last_updated_at: at.clone(),
            ended: None,
            asked: None,
        });
        let kept = Kept {
            agent: self.agent().to_owned(),
            created_at: at,
            ttl,
            standing,
            waiting: None,
            driver: None,
        };
        let created = match how {
            AsTask::Asked(_) => CreatedTask::Asked(Box::new(CreateTaskResult {
                task: kept.task(&id),
                meta: None,
                extra: Map::new(),
            })),
            AsTask::Taken => CreatedTask::Handle(kept.handle(&id)),
        };
        let tasks = self.inner.tasks.clone();
        // Kept before the agent hears of it, so that it finds it at once.
        tasks.kept.lock().insert(id.clone(), kept);
        let driver = tokio::spawn(self.clone().drive(id.clone(), coming, what, era));
        if let Some(kept) = tasks.kept.lock().get_mut(&id) {
            kept.driver = Some(driver.abort_handle());
        }
        let forget = Arc::downgrade(&tasks);
        tokio::spawn(async move {
            tokio::time::sleep(ttl).await;
            if let Some(tasks) = forget.upgrade() {
                let expired = tasks.kept.lock().remove(&id);
                if let Some(driver) = expired.and_then(|kept| kept.driver) {
                    driver.abort();
                }
            }
        });
        Ok(Rounds::Task(Box::new(created)))
    }

    /// Follows the task `id`'s call to its end: each time the server asks, the task waits
    /// for the agent's answers (`tasks/update`), then the call is taken up again with them.
    async fn drive(self, id: String, mut coming: Coming, what: String, era: Era) {
        let tasks = self.inner.tasks.clone();
        loop {
            let interim = match coming.await {
                Ok(Outcome::Asks(interim)) => interim,
                outcome => {
                    let ended = outcome.and_then(|o| match o {
                        Outcome::Ended(result, server) => super::tools::told(result, &server),
                        Outcome::Asks(_) => unreachable!("matched above"),
                    });
                    tasks.end(&id, ended);
                    return;
                }
            };
            let (resume, answers) = oneshot::channel();
            {
                let mut kept = tasks.kept.lock();
                let Some(task) = kept.get_mut(&id) else {
                    return;
                };
                task.waiting = Some(Waiting {
                    answers: Map::new(),
                    parked: interim.request_state.clone(),
                    resume,
                });
                task.update(|standing| {
                    standing.status = TaskStatus::InputRequired;
                    standing.asked = Some(interim.input_requests.clone());
                });
            }
            // None: the task was cancelled or forgotten.
            let Ok(mut answers) = answers.await else {
                return;
            };
            let extra = match interim.request_state {
                Some(state) => Map::from_iter([("requestState".to_owned(), json!(state))]),
                None => Map::new(),
            };
            let (session, what, era) = (self.clone(), what.clone(), era.clone());
            coming = Box::pin(async move {
                session
                    .resume(&what, &extra, &era, None, &mut answers)
                    .await?
                    .ok_or_else(|| {
                        ErrorObject::new(code::INTERNAL_ERROR, "the task's call was lost")
                    })
            });
        }
    }

    /// The agent's request about one of its tasks (`tasks/*`), in the era its `_meta` says.
    pub(super) fn task_request(
        &self,
        method_name: &str,
        params: Option<&Value>,
    ) -> Result<BoxFuture<'static, Result<Value, ErrorObject>>, ErrorObject> {
        let meta: Option<Meta> = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| serde_json::from_value(m.clone()).ok());
        let era = Era::of(meta.as_ref())?;
        let stateless = matches!(era, Era::Stateless(_));
        if let Era::Stateless(meta) = &era
            && !takes_tasks(meta.capabilities.extensions.as_ref())
        {
            return Err(extension_required(method_name));
        }
        match (method_name, stateless) {
            (method::TASKS_RESULT | method::TASKS_LIST, true) | (method::TASKS_UPDATE, false) => {
                return Err(ErrorObject::method_not_found(method_name));
            }
            (method::TASKS_LIST, false) => return Ok(ready(Ok(self.tasks_listed()))),
            _ => {}
        }
        let id = params
            .and_then(|p| p.get("taskId"))
            .and_then(Value::as_str)
            .ok_or_else(|| ErrorObject::invalid_params("the request names no taskId"))?
            .to_owned();
        let tasks = &self.inner.tasks;
        let answer = match method_name {
            method::TASKS_GET => tasks.get(self.agent(), &id, stateless),
            method::TASKS_CANCEL => self.cancel_task(&id, stateless),
            method::TASKS_UPDATE => self.update_task(&id, params),
            method::TASKS_RESULT => {
                let waited = tasks.clone().result(self.agent().to_owned(), id);
                return Ok(Box::pin(waited));
            }
            other => Err(ErrorObject::method_not_found(other)),
        };
        Ok(ready(answer))
    }

    fn tasks_listed(&self) -> Value {
        let kept = self.inner.tasks.kept.lock();
        let tasks: Vec<Task> = kept
            .iter()
            .filter(|(_, kept)| kept.agent == self.agent())
            .map(|(id, kept)| kept.task(id))
            .collect();
        json!({ "tasks": tasks })
    }

    /// `tasks/cancel`: stops the task's call. A task over already is refused in 2025-11-25,
    /// acknowledged in the extension.
    fn cancel_task(&self, id: &str, stateless: bool) -> Result<Value, ErrorObject> {
        let (waiting, driver, task) = {
            let mut kept = self.inner.tasks.kept.lock();
            let task = kept
                .get_mut(id)
                .filter(|kept| kept.agent == self.agent())
                .ok_or_else(|| unknown(id))?;
            if task.standing.borrow().status.is_terminal() {
                if stateless {
                    return Ok(json!({}));
                }
                return Err(ErrorObject::invalid_params(format!(
                    "the task {id:?} is over already"
                )));
            }
            task.update(|standing| {
                standing.status = TaskStatus::Cancelled;
                standing.asked = None;
            });
            (task.waiting.take(), task.driver.take(), task.task(id))
        };
        // A call parked on its questions is let go, and so cancelled at its server.
        if let Some(state) = waiting.and_then(|w| w.parked) {
            self.inner.questions.forget(&state);
        }
        if let Some(driver) = driver {
            driver.abort();
        }
        if stateless {
            return Ok(json!({}));
        }
        Ok(serde_json::to_value(task).unwrap_or_default())
    }

    /// `tasks/update` (the extension): takes the answers to the task's questions, each at
    /// once; an answer to a question it does not wait on is ignored. Once every question is
    /// answered, the call is taken up again.
    fn update_task(&self, id: &str, params: Option<&Value>) -> Result<Value, ErrorObject> {
        let given = super::asks::answers(params.and_then(|p| p.get("inputResponses")))?;
        let mut kept = self.inner.tasks.kept.lock();
        let task = kept
            .get_mut(id)
            .filter(|kept| kept.agent == self.agent())
            .ok_or_else(|| unknown(id))?;
        let mut complete = false;
        let mut taken = Vec::new();
        task.standing.send_if_modified(|standing| {
            let Some(asked) = standing.asked.as_mut() else {
                return false;
            };
            for (key, answer) in given {
                if asked.remove(&key).is_some() {
                    taken.push((key, answer));
                }
            }
            complete = asked.is_empty();
            if complete {
                standing.asked = None;
                standing.status = TaskStatus::Working;
            }
            standing.last_updated_at = now();
            true
        });
        if let Some(waiting) = task.waiting.as_mut() {
            waiting.answers.extend(taken);
        }
        if complete && let Some(waiting) = task.waiting.take() {
            let _ = waiting.resume.send(waiting.answers);
        }
        Ok(json!({}))
    }
}

impl AgentTasks {
    /// Ends the task `id` with what its call ended with: completed with its result (a
    /// tool's own error is a result), failed with the error the call would have answered.
    fn end(&self, id: &str, ended: Ended) {
        if let Some(kept) = self.kept.lock().get_mut(id) {
            kept.driver = None;
            kept.update(|standing| {
                standing.status = match ended {
                    Ok(_) => TaskStatus::Completed,
                    Err(_) => TaskStatus::Failed,
                };
                standing.ended = Some(ended);
                standing.asked = None;
            });
        }
    }

    /// `tasks/get`: the task; in the extension with what its status holds inlined.
    fn get(&self, agent: &str, id: &str, detailed: bool) -> Result<Value, ErrorObject> {
        let kept = self.kept.lock();
        let task = kept
            .get(id)
            .filter(|kept| kept.agent == agent)
            .ok_or_else(|| unknown(id))?;
        if !detailed {
            return Ok(serde_json::to_value(task.task(id)).unwrap_or_default());
        }
        let standing = task.standing.borrow().clone();
        let (result, error) = match standing.ended {
            Some(Ok(result)) => (serde_json::to_value(result).ok(), None),
            Some(Err(error)) => (None, Some(error)),
            None => (None, None),
        };
        let detailed = DetailedTask {
            task: task.handle(id),
            result: result.map(|mut result| {
                result["resultType"] = json!("complete");
                result
            }),
            error,
            input_requests: standing.asked,
        };
        Ok(serde_json::to_value(detailed).unwrap_or_default())
    }

    /// `tasks/result` (2025-11-25): waits for the task's end, then answers what its call
    /// would have, tied to the task in `_meta`.
    async fn result(self: Arc<Self>, agent: String, id: String) -> Result<Value, ErrorObject> {
        let mut standing = {
            let kept = self.kept.lock();
            let task = kept
                .get(&id)
                .filter(|kept| kept.agent == agent)
                .ok_or_else(|| unknown(&id))?;
            task.standing.subscribe()
        };
        let ended = standing
            .wait_for(|s| s.status.is_terminal())
            .await
            .map_err(|_| unknown(&id))?
            .clone();
        let mut result = match (ended.status, ended.ended) {
            (_, Some(Ok(result))) => serde_json::to_value(result).unwrap_or_default(),
            (_, Some(Err(error))) => return Err(error),
            _ => {
                return Err(ErrorObject::new(
                    code::INTERNAL_ERROR,
                    format!("the task {id:?} was cancelled"),
                ));
            }
        };
        result["_meta"][RELATED_TASK] = json!({ "taskId": id });
        Ok(result)
    }
}

/// Whether a client's `extensions` take the tasks extension.
pub(super) fn takes_tasks(extensions: Option<&Map<String, Value>>) -> bool {
    extensions.is_some_and(|e| e.contains_key(TASKS_EXTENSION))
}

/// The refusal of what only an agent that declares the tasks extension may ask (-32021),
/// saying what it must declare.
fn extension_required(what: &str) -> ErrorObject {
    let mut error = ErrorObject::new(
        code::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "{what} needs the client to declare the tasks extension ({})",
            TASKS_EXTENSION
        ),
    );
    let extensions = Map::from_iter([(TASKS_EXTENSION.to_owned(), json!({}))]);
    error.data = Some(Box::new(json!({
        "requiredCapabilities": {"extensions": extensions}
    })));
    error
}

fn ready(answer: Result<Value, ErrorObject>) -> BoxFuture<'static, Result<Value, ErrorObject>> {
    Box::pin(std::future::ready(answer))
}

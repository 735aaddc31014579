//! The explorer's side of tool calls that run as tasks: each state of a call's task kept
//! in the task book and told to the window; the list for the Tasks view; a task cancelled
//! at its server from there; and the tasks left unfinished when Switchboard last quit,
//! asked after again once their server runs (a server that no longer knows one ends it).

use serde_json::Value;
use switchboard_mcp::types::Task;

use super::{Explorer, ExplorerError};
use crate::Update;
use crate::tasks::{Began, TaskBookError, TaskEntry};

impl Explorer {
    /// Notes that a call of this run follows the task `task_id` of `server` (or no longer):
    /// it is not resumed meanwhile.
    pub(super) fn following(&self, server: &str, task_id: &str, on: bool) {
        let key = (server.to_owned(), task_id.to_owned());
        let mut following = self.following.lock();
        if on {
            following.insert(key);
        } else {
            following.remove(&key);
        }
    }

    /// A state of the task a call became: the first makes the call its follower.
    pub(super) async fn task_state(
        &self,
        began: &Began<'_>,
        became: &mut Option<String>,
        state: Task,
    ) {
        if became.is_none() {
            self.following(began.server, &state.task_id, true);
        }
        *became = Some(state.task_id.clone());
        self.task_seen(began, &state).await;
    }

    /// A call's task as its server describes it now: kept, and the window told.
    pub(super) async fn task_seen(&self, began: &Began<'_>, task: &Task) {
        let Some(book) = self.host.task_book() else {
            return;
        };
        match book.seen(began, task).await {
            Ok(entry) => self.host.announce(Update::TaskChanged { task: entry }),
            Err(e) => tracing::warn!("the task {} is not kept: {e}", task.task_id),
        }
    }

    /// A call's task ended: how, kept, and the window told.
    pub(super) async fn task_ended(
        &self,
        server: &str,
        task_id: &str,
        outcome: Result<Value, String>,
    ) {
        let Some(book) = self.host.task_book() else {
            return;
        };
        match book.ended(server, task_id, outcome).await {
            Ok(entry) => self.host.announce(Update::TaskChanged { task: entry }),
            Err(e) => tracing::warn!("the end of task {task_id} is not kept: {e}"),
        }
    }

    /// A state of the task another service's call became (a model's, in a conversation):
    /// kept and told as the explorer's own calls' are, the call its follower.
    pub(crate) async fn call_task_seen(&self, began: &Began<'_>, task: &Task) {
        self.following(began.server, &task.task_id, true);
        self.task_seen(began, task).await;
    }

    /// How the task of another service's call ended; its call follows it no more.
    pub(crate) async fn call_task_ended(
        &self,
        server: &str,
        task_id: &str,
        outcome: Result<Value, String>,
    ) {
        self.task_ended(server, task_id, outcome).await;
        self.following(server, task_id, false);
    }

    /// The latest tasks, the newest first.
    pub async fn tasks(&self) -> Result<Vec<TaskEntry>, ExplorerError> {
        match self.host.task_book() {
            Some(book) => Ok(book.list().await?),
            None => Ok(Vec::new()),
        }
    }

    /// Asks the server of task `id` to cancel it; the call that follows it, if any, ends
    /// as the server says it ended.
    pub async fn cancel_task(&self, id: i64) -> Result<TaskEntry, ExplorerError> {
        let book = self.host.task_book().ok_or(TaskBookError::NotFound(id))?;
        let entry = book.get(id).await?;
        let client = self.client(&entry.server)?;
        client.cancel_task(&entry.task_id).await;
        let began = Began {
            server: &entry.server,
            tool: &entry.tool,
            asked_by: &entry.asked_by,
        };
        match client.get_task(&entry.task_id).await {
            Ok(now) => {
                self.task_seen(&began, &now).await;
                Ok(book.get(id).await?)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Asks after the unfinished tasks of `server` that no call of this run follows: each
    /// is followed to its end, which is kept; one its server no longer knows ends there.
    pub async fn resume_tasks(&self, server: &str) {
        let Some(book) = self.host.task_book() else {
            return;
        };
        let unfinished = match book.unfinished().await {
            Ok(unfinished) => unfinished,
            Err(e) => return tracing::warn!("the unfinished tasks could not be read: {e}"),
        };
        let Ok(client) = self.client(server) else {
            return;
        };
        for entry in unfinished.into_iter().filter(|e| e.server == server) {
            if self
                .following
                .lock()
                .contains(&(entry.server.clone(), entry.task_id.clone()))
            {
                continue;
            }
            let (explorer, client) = (self.clone(), client.clone());
            tokio::spawn(async move { explorer.resume(&client, entry).await });
        }
    }

    async fn resume(&self, client: &switchboard_mcp::client::Client, entry: TaskEntry) {
        self.following(&entry.server, &entry.task_id, true);
        let (task, mut states) = tokio::sync::mpsc::unbounded_channel();
        let mut options = client.request_options();
        options.task = Some(task);
        let began = Began {
            server: &entry.server,
            tool: &entry.tool,
            asked_by: &entry.asked_by,
        };
        let following = client.follow_task(&entry.task_id, options);
        tokio::pin!(following);
        let outcome = loop {
            tokio::select! {
                Some(state) = states.recv() => self.task_seen(&began, &state).await,
                outcome = &mut following => break outcome,
            }
        };
        let outcome = match outcome {
            Ok(result) => Ok(serde_json::to_value(result).unwrap_or(Value::Null)),
            Err(e) => Err(format!("asked after again, it has no result: {e}")),
        };
        self.task_ended(&entry.server, &entry.task_id, outcome)
            .await;
        self.following(&entry.server, &entry.task_id, false);
    }
}

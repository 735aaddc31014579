//! A call or read of the agent's under way: started on its own through the desk (named by
//! a token among every call under way, cancelled as the window's would be when the agent
//! cancels it or goes away), followed to its end with its progress and, for a stateless
//! agent, the servers' log messages; a server's questions for a stateless agent park it
//! ([`super::asks`]) until the agent's retry takes it up again.

use std::sync::atomic::Ordering;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use switchboard_mcp::client::{Client, ClientError, declaring, logging_at};
use switchboard_mcp::connection::Progress;
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::server::handler::Rounds;
use switchboard_mcp::types::{ClientCapabilities, InputRequiredResult, method};
use tokio::sync::mpsc;

use super::asks::{self, AgentAsks, Asked, Resumed};
use super::era::Era;
use super::logs::Logs;
use super::{Served, Session};
use crate::refusal;
use switchboard_core::reads::Read;
use switchboard_desk::{AgentError, AgentLine, Agents};

/// A call under way for the agent.
pub(super) struct Running {
    server: String,
    call: tokio::task::JoinHandle<Result<Value, AgentError>>,
    reports: Option<mpsc::Receiver<Progress>>,
    /// Where the server's questions for a stateless agent come.
    pub(super) asks: Option<AgentAsks>,
    _line: Option<switchboard_desk::LineHeld>,
    _cancel_if_dropped: CancelOnDrop,
}

/// How a call or read of the agent's that ran on its own came out.
pub(super) enum Outcome {
    /// It ended, at this server.
    Ended(Result<Value, AgentError>, String),
    /// The server asks a stateless agent first: the interim result that says so.
    Asks(InputRequiredResult),
}

impl Outcome {
    /// What the agent is told: the interim result, or the end as `tell` says it.
    pub(super) fn told<T>(
        self,
        tell: impl FnOnce(Result<Value, AgentError>, &str) -> Result<T, ErrorObject>,
    ) -> Result<Rounds<T>, ErrorObject> {
        match self {
            Self::Ended(outcome, server) => tell(outcome, &server).map(Rounds::Complete),
            Self::Asks(interim) => Ok(Rounds::InputRequired(interim)),
        }
    }
}

/// Cancels a call of the desk when dropped, unless it ended before.
struct CancelOnDrop {
    agents: Agents,
    token: String,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.agents.cancel(&self.token);
    }
}

impl Session {
    /// A new token for a call or read of the agent's, unique among every agent's.
    pub(super) fn token(&self) -> String {
        let n = self.inner.calls.fetch_add(1, Ordering::Relaxed);
        format!("agent:{}:{}:{n}", self.agent(), self.inner.number)
    }

    /// Starts a call or read of the agent's (`work`, given the server and the token that
    /// names it among the calls under way) of `server`, on its own: an agent that cancels it
    /// (or goes away) drops what follows it, and it is cancelled as the window's would be,
    /// told to the server and recorded as such. What the server asks while serving it may
    /// be the agent's to answer: over its session, or (stateless) as its interim result.
    pub(super) fn start<F>(
        &self,
        server: &str,
        era: &Era,
        reports: Option<mpsc::Receiver<Progress>>,
        work: impl FnOnce(String, String) -> F,
    ) -> Running
    where
        F: Future<Output = Result<Value, AgentError>> + Send + 'static,
    {
        let token = self.token();
        let (asks, declared) = match era {
            Era::Stateful => {
                // A session's agent offers its roots when it connects and when they change:
                // a server's own question for roots is the person's.
                let mut declared = self.state().declared.clone();
                declared.roots = None;
                (None, declared)
            }
            Era::Stateless(meta) => (Some(AgentAsks::open()), meta.capabilities.clone()),
        };
        // A stateless server is told what a stateless agent can answer (its sampling and
        // forms; the person's folders answer for roots), so that it asks nothing more.
        let told = match era {
            Era::Stateful => None,
            Era::Stateless(_) => {
                let mut told = declared.clone();
                told.roots = ClientCapabilities::all().roots;
                Some(told)
            }
        };
        let connection = match &asks {
            Some(asks) => Some(asks.connection().clone()),
            None => self.connection(),
        };
        let line = connection.map(|connection| {
            let line = AgentLine {
                agent: self.agent().to_owned(),
                session: self.inner.number,
                connection: connection.downgrade(),
                declared,
            };
            self.inner.agents.call_made_by(&token, line)
        });
        // A stateless server logs only to a request that names a level: the agent's goes along.
        let level = match era {
            Era::Stateful => self.state().log_level,
            Era::Stateless(meta) => meta.log_level,
        };
        let work = work(server.to_owned(), token.clone());
        let call = tokio::spawn(async move {
            let work = async move {
                match level {
                    Some(level) => logging_at(level, work).await,
                    None => work.await,
                }
            };
            match told {
                Some(told) => declaring(told, work).await,
                None => work.await,
            }
        });
        Running {
            server: server.to_owned(),
            call,
            reports,
            asks,
            _line: line,
            _cancel_if_dropped: CancelOnDrop {
                agents: self.inner.agents.clone(),
                token,
            },
        }
    }

    /// Takes up the request of the agent's (`what`) that a stateless retry names by its
    /// `requestState` (in `extra`), with the answers it brought: how it came out; none for a
    /// request that is not such a retry.
    pub(super) async fn resume(
        &self,
        what: &str,
        extra: &Map<String, Value>,
        era: &Era,
        progress_token: Option<Value>,
        given: &mut Map<String, Value>,
    ) -> Result<Option<Outcome>, ErrorObject> {
        let (Era::Stateless(_), Some(state)) = (era, extra.get("requestState")) else {
            return Ok(None);
        };
        let (resumed, offers) = self
            .inner
            .questions
            .resume(state, self.agent(), what, given)?;
        self.offer_each(offers);
        match resumed {
            Resumed::Running(running) => {
                let given = std::mem::take(given);
                let logs = self.logs_for(era);
                let outcome = self
                    .follow(running, what, progress_token, logs, given)
                    .await?;
                Ok(Some(outcome))
            }
            Resumed::AskAgain(interim) => Ok(Some(Outcome::Asks(interim))),
        }
    }

    /// Runs a read of the agent's (`what`: its method and what it names) of `server` to its
    /// end, or to the server's questions for a stateless agent (`given`: the answers it
    /// brought in advance).
    pub(super) async fn read<T, F>(
        &self,
        server: &str,
        read: Read,
        (what, era, given): (&str, &Era, Map<String, Value>),
        reading: impl FnOnce(Client) -> F + Send + 'static,
    ) -> Result<Outcome, ErrorObject>
    where
        T: Serialize,
        F: Future<Output = Result<T, ClientError>> + Send + 'static,
    {
        let (agents, agent) = (self.inner.agents.clone(), self.agent().to_owned());
        let running = self.start(server, era, None, move |server, token| async move {
            let read = agents.read(&agent, &server, read, token, reading).await?;
            Ok(serde_json::to_value(read).unwrap_or(Value::Null))
        });
        self.follow(running, what, None, self.logs_for(era), given)
            .await
    }

    /// Follows a call to its end, passing its progress on (and, to a stateless request that
    /// asked for them, the server's log messages meanwhile); or, when the server asks a
    /// stateless agent something, parks it and answers with the question.
    pub(super) async fn follow(
        &self,
        mut running: Running,
        what: &str,
        progress_token: Option<Value>,
        mut logs: Option<Logs>,
        mut given: Map<String, Value>,
    ) -> Result<Outcome, ErrorObject> {
        enum Step {
            Done(Result<Value, AgentError>),
            Progress(Progress),
            Asked(Asked),
            Logged(Value),
        }
        let server = running.server.clone();
        loop {
            let step = {
                let next = async {
                    match running.reports.as_mut() {
                        Some(reports) => reports.recv().await,
                        None => std::future::pending().await,
                    }
                };
                let asked = async {
                    match running.asks.as_mut() {
                        Some(asks) => asks.next().await,
                        None => std::future::pending().await,
                    }
                };
                let logged = async {
                    match logs.as_mut() {
                        Some(logs) => logs.next_of(&server).await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    // What the server sent before its result is passed on before it.
                    biased;
                    Some(step) = next => Step::Progress(step),
                    Some(asked) = asked => Step::Asked(asked),
                    message = logged => Step::Logged(message),
                    outcome = &mut running.call => Step::Done(
                        outcome.unwrap_or_else(|e| Err(AgentError::Interrupted(e.to_string())))
                    ),
                }
            };
            match step {
                Step::Done(outcome) => {
                    for message in logs
                        .as_mut()
                        .map(|l| l.come_of(&server))
                        .unwrap_or_default()
                    {
                        self.notify(method::LOGGING_MESSAGE, Some(message)).await;
                    }
                    return Ok(Outcome::Ended(outcome, server));
                }
                Step::Progress(step) => {
                    let Some(progress_token) = &progress_token else {
                        continue;
                    };
                    let mut params =
                        json!({"progressToken": progress_token, "progress": step.progress});
                    if let Some(total) = step.total {
                        params["total"] = json!(total);
                    }
                    if let Some(message) = step.message {
                        params["message"] = json!(message);
                    }
                    self.notify(method::PROGRESS, Some(params)).await;
                }
                Step::Asked(first) => {
                    // The others the server asked with it come with it.
                    let mut asked = vec![first];
                    while let Some(asks) = running.asks.as_mut()
                        && asked[0]
                            .round
                            .iter()
                            .any(|k| asked.iter().all(|a| &a.key != k))
                    {
                        tokio::select! {
                            more = asks.next() => match more {
                                Some(more) => asked.push(more),
                                None => break,
                            },
                            outcome = &mut running.call => return Ok(Outcome::Ended(
                                outcome.unwrap_or_else(|e| Err(AgentError::Interrupted(e.to_string()))),
                                server,
                            )),
                        }
                    }
                    // Those answered in advance are answered now; the rest, the agent's.
                    let questions = &self.inner.questions;
                    let (settled, offers) =
                        questions.settle(self.agent(), what, running, asked, &mut given)?;
                    self.offer_each(offers);
                    match settled {
                        Resumed::Running(going_on) => running = going_on,
                        Resumed::AskAgain(interim) => return Ok(Outcome::Asks(interim)),
                    }
                }
                Step::Logged(message) => {
                    self.notify(method::LOGGING_MESSAGE, Some(message)).await;
                }
            }
        }
    }
}

/// The answers a stateless request brought (`inputResponses`, in `extra`), checked.
pub(super) fn given(
    extra: &Map<String, Value>,
    era: &Era,
) -> Result<Map<String, Value>, ErrorObject> {
    match era {
        Era::Stateless(_) => asks::answers(extra.get("inputResponses")),
        Era::Stateful => Ok(Map::new()),
    }
}

/// What the agent is told of a read's end: the result, marked with the server that
/// answered it.
pub(super) fn read_told<T: DeserializeOwned + Served>(
    outcome: Result<Value, AgentError>,
    server: &str,
) -> Result<T, ErrorObject> {
    let result = outcome.map_err(refusal)?;
    Ok(result_of::<T>(result, server)?.served_by(server))
}

/// A server's result, as the desk passed it on, in its type.
pub(super) fn result_of<T: DeserializeOwned>(
    result: Value,
    server: &str,
) -> Result<T, ErrorObject> {
    serde_json::from_value(result).map_err(|e| {
        ErrorObject::new(
            code::INTERNAL_ERROR,
            format!("the result {server} answered does not read: {e}"),
        )
    })
}

//! What a server asks while serving a stateless agent's tool call (2026-07-28 multi
//! round-trip requests). In that revision a server may ask a client nothing outside an
//! answer: the sampling or form request a server sends while serving the call (and that
//! the desk gives the agent to answer, as it would a session's) comes back to the agent as
//! the call's interim result, `resultType: input_required`, with a `requestState`. The call
//! itself keeps running here, parked under that state; the agent's retry with the state and
//! its `inputResponses` takes it up again, hands the answer to the server and follows the
//! call on to its end (or to the next question).
//!
//! The state is a random handle, not the call: it is bound to the agent and the tool, and
//! forgotten after [`PARKED_FOR`] (the call is then cancelled), so a forged, replayed or
//! stolen one finds nothing. The desk's delegation asks the agent over an in-memory
//! connection of the call's own ([`AgentAsks`]), as it asks a session's agent over its.
//!
//! A stateless agent that can list its roots is asked for them the same way, before its
//! call starts: with its first call, and again once [`ROOTS_ASKED_EVERY`] has passed (the
//! revision has no notice of a change of roots). What it lists is offered to the person as
//! a session's agent's roots are, when it differs from what it offered last.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use switchboard_mcp::connection::{Connection, IncomingHandler};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::transport::memory::{MemoryPeer, pair};
use switchboard_mcp::transport::{BoxFuture, discard_log};
use switchboard_mcp::types::{ListRootsResult, Root, method};

use super::Running;

/// How long a parked call waits for the agent's retry before it is cancelled.
const PARKED_FOR: Duration = Duration::from_secs(600);

/// How long the roots a stateless agent listed are taken as its roots.
const ROOTS_ASKED_EVERY: Duration = Duration::from_secs(300);

/// The key of the question for the agent's roots in `inputRequests`.
const ROOTS_KEY: &str = "roots";

/// The connection the desk asks a stateless agent's questions on, and its other end.
pub(super) struct AgentAsks {
    connection: Connection,
    peer: MemoryPeer,
}

impl AgentAsks {
    pub(super) fn open() -> Self {
        let (parts, peer) = pair(discard_log());
        let connection = Connection::start(parts, Arc::new(NothingToAnswer));
        Self { connection, peer }
    }

    pub(super) fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The next question for the agent (a JSON-RPC request), once one is asked.
    pub(super) async fn next(&mut self) -> Option<Value> {
        loop {
            let line = self.peer.from_client.recv().await?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            // A question given up (its time ran out) needs no answer.
            if message.get("id").is_some() && message.get("method").is_some() {
                return Some(message);
            }
        }
    }

    fn answer(&self, id: &Value, result: Value) {
        let response = json!({"jsonrpc": "2.0", "id": id, "result": result});
        let _ = self.peer.to_client.try_send(response.to_string());
    }
}

/// The agent's side of the questions' connection answers nothing itself.
struct NothingToAnswer;

impl IncomingHandler for NothingToAnswer {
    fn request(
        &self,
        method: String,
        _params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        Box::pin(async move { Err(ErrorObject::method_not_found(&method)) })
    }

    fn notification(&self, _method: String, _params: Option<Value>) {}
}

/// A call of `agent`'s waiting for its answer.
struct Parked {
    agent: String,
    tool: String,
    waiting: Waiting,
}

/// What a parked call waits for.
enum Waiting {
    /// The answer to `asked`, a question of the server's while it runs.
    Server { running: Box<Running>, asked: Value },
    /// The agent's roots, before it starts.
    Roots,
}

impl Waiting {
    /// The question's key in `inputRequests`: a server's, its id on the questions'
    /// connection.
    fn key(&self) -> String {
        match self {
            Self::Server { asked, .. } => match &asked["id"] {
                Value::String(id) => id.clone(),
                other => other.to_string(),
            },
            Self::Roots => ROOTS_KEY.to_owned(),
        }
    }

    fn question(&self) -> Value {
        match self {
            Self::Server { asked, .. } => {
                json!({"method": asked["method"], "params": asked["params"]})
            }
            Self::Roots => json!({"method": method::ROOTS_LIST}),
        }
    }
}

/// What a retry finds.
pub(super) enum Resumed {
    /// The answer went to the server: follow the call on.
    Running(Running),
    /// The agent listed its roots: the call may start.
    Start,
    /// The retry did not answer: the same question again, as the revision asks.
    AskAgain(Value),
}

/// What the questions to the stateless agents of one transport keep: the calls parked until
/// their agents answer, by `requestState`, and what each agent said of its roots.
#[derive(Default)]
pub(crate) struct Questions {
    calls: Mutex<HashMap<String, Parked>>,
    roots: Mutex<HashMap<String, RootsListed>>,
}

/// When an agent was last asked for its roots, and what it offered last.
#[derive(Default)]
struct RootsListed {
    asked: Option<Instant>,
    offered: Option<Vec<Root>>,
}

impl Questions {
    /// Parks `running` until the agent answers `asked`; the interim result that tells it.
    pub(super) fn park(
        self: &Arc<Self>,
        agent: &str,
        tool: &str,
        running: Running,
        asked: Value,
    ) -> Value {
        self.keep(
            agent,
            tool,
            Waiting::Server {
                running: Box::new(running),
                asked,
            },
        )
    }

    /// The interim result asking `agent` for its roots before its call of `tool` starts, if
    /// it is time to ask (it is taken as asked from now on).
    pub(super) fn roots_due(self: &Arc<Self>, agent: &str, tool: &str) -> Option<Value> {
        {
            let mut roots = lock(&self.roots);
            let listed = roots.entry(agent.to_owned()).or_default();
            if listed
                .asked
                .is_some_and(|at| at.elapsed() < ROOTS_ASKED_EVERY)
            {
                return None;
            }
            listed.asked = Some(Instant::now());
        }
        Some(self.keep(agent, tool, Waiting::Roots))
    }

    /// The roots `agent` listed, read from its answer: those to offer the person, none when
    /// they are those it offered last.
    pub(super) fn roots_listed(
        &self,
        agent: &str,
        answer: &Value,
    ) -> Result<Option<Vec<Root>>, ErrorObject> {
        let listed: ListRootsResult = serde_json::from_value(answer.clone()).map_err(|e| {
            ErrorObject::invalid_params(format!("the answer to {}: {e}", method::ROOTS_LIST))
        })?;
        let mut roots = lock(&self.roots);
        let known = roots.entry(agent.to_owned()).or_default();
        if known.offered.as_ref() == Some(&listed.roots) {
            return Ok(None);
        }
        known.offered = Some(listed.roots.clone());
        Ok(Some(listed.roots))
    }

    fn keep(self: &Arc<Self>, agent: &str, tool: &str, waiting: Waiting) -> Value {
        let state = handle();
        let key = waiting.key();
        let question = waiting.question();
        let parked = Parked {
            agent: agent.to_owned(),
            tool: tool.to_owned(),
            waiting,
        };
        lock(&self.calls).insert(state.clone(), parked);
        let calls = Arc::downgrade(self);
        let forgotten = state.clone();
        tokio::spawn(async move {
            tokio::time::sleep(PARKED_FOR).await;
            if let Some(calls) = calls.upgrade() {
                let expired = lock(&calls.calls).remove(&forgotten);
                drop(expired);
            }
        });
        json!({
            "resultType": "input_required",
            "inputRequests": {key: question},
            "requestState": state,
        })
    }

    /// Takes up the call `state` names, if it is `agent`'s call of `tool`, with the answers
    /// the retry brought (the roots it was asked for are `roots_listed` here).
    pub(super) fn resume(
        self: &Arc<Self>,
        state: &Value,
        agent: &str,
        tool: &str,
        responses: Option<&Value>,
    ) -> Result<(Resumed, Option<Vec<Root>>), ErrorObject> {
        let unknown = || {
            ErrorObject::invalid_params(
                "the requestState is unknown, has expired, or is not of this call: call the tool again",
            )
        };
        let state = state.as_str().ok_or_else(unknown)?;
        let parked = {
            let mut calls = lock(&self.calls);
            let theirs = calls
                .get(state)
                .is_some_and(|p| p.agent == agent && p.tool == tool);
            if !theirs {
                return Err(unknown());
            }
            calls.remove(state).ok_or_else(unknown)?
        };
        let Some(answer) = responses.and_then(|r| r.get(parked.waiting.key())) else {
            return Ok((
                Resumed::AskAgain(self.keep(agent, tool, parked.waiting)),
                None,
            ));
        };
        match parked.waiting {
            Waiting::Server { running, asked } => {
                let asks = running.asks.as_ref().ok_or_else(unknown)?;
                asks.answer(&asked["id"], answer.clone());
                Ok((Resumed::Running(*running), None))
            }
            Waiting::Roots => Ok((Resumed::Start, self.roots_listed(agent, answer)?)),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// 128 random bits, hex: not to be guessed.
fn handle() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::connection::{Connection, IncomingHandler};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::transport::memory::{MemoryPeer, pair};
use switchboard_mcp::transport::{BoxFuture, discard_log};

use super::Running;

/// How long a parked call waits for the agent's retry before it is cancelled.
const PARKED_FOR: Duration = Duration::from_secs(600);

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

/// A call waiting for its agent's answer to `asked`.
struct Parked {
    agent: String,
    tool: String,
    running: Running,
    asked: Value,
}

/// What a retry finds.
pub(super) enum Resumed {
    /// The answer went to the server: follow the call on.
    Running(Running),
    /// The retry did not answer: the same question again, as the revision asks.
    AskAgain(Value),
}

/// The calls parked until their agents answer, by `requestState`.
#[derive(Default)]
pub(crate) struct ParkedCalls {
    calls: Mutex<HashMap<String, Parked>>,
}

impl ParkedCalls {
    /// Parks `running` until the agent answers `asked`; the interim result that tells it.
    pub(super) fn park(
        self: &Arc<Self>,
        agent: &str,
        tool: &str,
        running: Running,
        asked: Value,
    ) -> Value {
        let parked = Parked {
            agent: agent.to_owned(),
            tool: tool.to_owned(),
            running,
            asked,
        };
        self.keep(parked)
    }

    fn keep(self: &Arc<Self>, parked: Parked) -> Value {
        let state = handle();
        let key = key_of(&parked.asked);
        let question = json!({"method": parked.asked["method"], "params": parked.asked["params"]});
        self.lock().insert(state.clone(), parked);
        let calls = Arc::downgrade(self);
        let forgotten = state.clone();
        tokio::spawn(async move {
            tokio::time::sleep(PARKED_FOR).await;
            if let Some(calls) = calls.upgrade() {
                let expired = calls.lock().remove(&forgotten);
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
    /// the retry brought.
    pub(super) fn resume(
        self: &Arc<Self>,
        state: &Value,
        agent: &str,
        tool: &str,
        responses: Option<&Value>,
    ) -> Result<Resumed, ErrorObject> {
        let unknown = || {
            ErrorObject::invalid_params(
                "the requestState is unknown, has expired, or is not of this call: call the tool again",
            )
        };
        let state = state.as_str().ok_or_else(unknown)?;
        let parked = {
            let mut calls = self.lock();
            let theirs = calls
                .get(state)
                .is_some_and(|p| p.agent == agent && p.tool == tool);
            if !theirs {
                return Err(unknown());
            }
            calls.remove(state).ok_or_else(unknown)?
        };
        let answer = responses.and_then(|r| r.get(key_of(&parked.asked)));
        match answer {
            Some(answer) => {
                let asks = parked.running.asks.as_ref().ok_or_else(unknown)?;
                asks.answer(&parked.asked["id"], answer.clone());
                Ok(Resumed::Running(parked.running))
            }
            None => Ok(Resumed::AskAgain(self.keep(parked))),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Parked>> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The key of a question in `inputRequests`: its id on the questions' connection.
fn key_of(asked: &Value) -> String {
    match &asked["id"] {
        Value::String(id) => id.clone(),
        other => other.to_string(),
    }
}

/// 128 random bits, hex: not to be guessed.
fn handle() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

//! What a server asks while serving a stateless agent's tool call or read (2026-07-28 multi
//! round-trip requests). In that revision a server may ask a client nothing outside an
//! answer: the sampling, form and roots requests a server sends while serving the call (and
//! that the desk gives the agent to answer, as it would a session's) come back to the agent
//! as the call's interim result, `resultType: input_required`, with a `requestState`: those
//! the server asked together, together, under the server's own keys. The call itself keeps
//! running here, parked under that state; the agent's retry with the state and its
//! `inputResponses` takes it up again, hands the answers to the server and follows the call
//! on to its end (or to the next question). Answers a request brings for questions not yet
//! asked are kept for them: a question asked under such a key is answered at once.
//!
//! The state is a random handle, not the call: it is bound to the agent and the tool, and
//! forgotten after [`PARKED_FOR`] (the call is then cancelled), so a forged, replayed or
//! stolen one finds nothing. The desk's delegation asks the agent over an in-memory
//! connection of the call's own ([`AgentAsks`]), as it asks a session's agent over its.
//!
//! A stateless agent that can list its roots is asked for them when a server asks for roots
//! during its call: what it lists is offered to the person as a session's agent's roots
//! are, when it differs from what it offered last; the server sees what the person chose.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_mcp::client::input_required::Relayed;
use switchboard_mcp::connection::Connection;
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::handler::{Dispatch, ServerHandler};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{MemoryPeer, pair};
use switchboard_mcp::types::{InputRequiredResult, ListRootsResult, Root, method};

use switchboard_core::delegated::RELAYED_META;

use super::calls::Running;

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
        let connection = Connection::start(parts, Arc::new(Dispatch::new(NothingToAnswer)));
        Self { connection, peer }
    }

    pub(super) fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The next question for the agent, once one is asked.
    pub(super) async fn next(&mut self) -> Option<Asked> {
        loop {
            let line = self.peer.from_client.recv().await?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            // A question given up (its time ran out) needs no answer.
            if let Some(asked) = Asked::read(message) {
                return Some(asked);
            }
        }
    }

    /// Hands the agent's answer to `asked` to the server.
    pub(super) fn answer(&self, asked: &Asked, result: Value) {
        let id = &asked.id;
        let response = json!({"jsonrpc": "2.0", "id": id, "result": result});
        let _ = self.peer.to_client.try_send(response.to_string());
    }
}

/// The agent's side of the questions' connection answers nothing itself: every request
/// is a method it does not offer.
struct NothingToAnswer;

impl ServerHandler for NothingToAnswer {}

/// A question of the server's, as the agent is asked it.
pub(super) struct Asked {
    /// Its id on the questions' connection.
    id: Value,
    /// The key the server asked it under.
    pub(super) key: String,
    /// The keys of the questions the server asked with it (this one among them).
    pub(super) round: Vec<String>,
    method: String,
    params: Option<Value>,
}

impl Asked {
    /// A question from its JSON-RPC request; none for anything else.
    fn read(mut message: Value) -> Option<Self> {
        let id = message.get("id")?.clone();
        let method = message.get("method")?.as_str()?.to_owned();
        let relayed = message
            .pointer_mut("/params/_meta")
            .and_then(Value::as_object_mut)
            .and_then(|meta| meta.remove(RELAYED_META));
        let own_key = || match &id {
            Value::String(id) => id.clone(),
            other => other.to_string(),
        };
        let (key, round) = match relayed.and_then(|r| serde_json::from_value::<Relayed>(r).ok()) {
            Some(Relayed { key, round }) => (key, round),
            None => (own_key(), vec![own_key()]),
        };
        let mut params = message.get_mut("params").map(Value::take);
        // What is left of `_meta` is the server's.
        if let Some(Value::Object(fields)) = &mut params
            && fields.get("_meta").is_some_and(|m| m == &json!({}))
        {
            fields.remove("_meta");
        }
        Some(Self {
            id,
            key,
            round,
            method,
            params,
        })
    }

    /// The question in `inputRequests`.
    fn question(&self) -> Value {
        match &self.params {
            Some(params) => json!({"method": self.method, "params": params}),
            None => json!({"method": self.method}),
        }
    }

    fn is_roots(&self) -> bool {
        self.method == method::ROOTS_LIST
    }
}

/// A request of `agent`'s (`what`: its method and name) waiting for its answers.
struct Parked {
    agent: String,
    what: String,
    running: Box<Running>,
    asked: Vec<Asked>,
}

/// What a retry finds.
pub(super) enum Resumed {
    /// Every answer went to the server: follow the call on.
    Running(Running),
    /// Some went unanswered: those again, as the revision asks.
    AskAgain(InputRequiredResult),
}

/// What the questions to the stateless agents of one transport keep: the calls parked until
/// their agents answer, by `requestState`, and the roots each agent offered last.
#[derive(Default)]
pub(crate) struct Questions {
    calls: Mutex<HashMap<String, Parked>>,
    roots: Mutex<HashMap<String, Vec<Root>>>,
}

/// Checks that `responses` (a request's `inputResponses`, if it has them) are answers: an
/// object whose every value is one.
pub(super) fn answers(responses: Option<&Value>) -> Result<Map<String, Value>, ErrorObject> {
    let malformed = || {
        ErrorObject::invalid_params(
            "inputResponses must be an object that maps each question's key to its answer, itself an object",
        )
    };
    match responses {
        None => Ok(Map::new()),
        Some(Value::Object(answers)) if answers.values().all(Value::is_object) => {
            Ok(answers.clone())
        }
        Some(_) => Err(malformed()),
    }
}

impl Questions {
    /// Parks `running` until the agent answers `asked`; the interim result that tells it.
    pub(super) fn park(
        self: &Arc<Self>,
        agent: &str,
        what: &str,
        running: Running,
        asked: Vec<Asked>,
    ) -> InputRequiredResult {
        let state = handle();
        let questions: Map<String, Value> = asked
            .iter()
            .map(|asked| (asked.key.clone(), asked.question()))
            .collect();
        let parked = Parked {
            agent: agent.to_owned(),
            what: what.to_owned(),
            running: Box::new(running),
            asked,
        };
        self.calls.lock().insert(state.clone(), parked);
        let calls = Arc::downgrade(self);
        let forgotten = state.clone();
        tokio::spawn(async move {
            tokio::time::sleep(PARKED_FOR).await;
            if let Some(calls) = calls.upgrade() {
                let expired = calls.calls.lock().remove(&forgotten);
                drop(expired);
            }
        });
        InputRequiredResult {
            input_requests: questions,
            request_state: Some(state),
        }
    }

    /// Lets go of the call parked under `state`, if any: it is cancelled.
    pub(super) fn forget(&self, state: &str) {
        let parked = self.calls.lock().remove(state);
        drop(parked);
    }

    /// Hands `answer` to the server, if it answers `asked`; the roots to offer the person,
    /// if it lists the agent's and they are not those it offered last.
    pub(super) fn answer(
        &self,
        agent: &str,
        running: &Running,
        asked: &Asked,
        answer: Value,
    ) -> Result<Option<Vec<Root>>, ErrorObject> {
        let offered = if asked.is_roots() {
            self.roots_listed(agent, &answer)?
        } else {
            None
        };
        if let Some(asks) = &running.asks {
            asks.answer(asked, answer);
        }
        Ok(offered)
    }

    /// The roots `agent` listed, read from its answer: those to offer the person, none when
    /// they are those it offered last.
    fn roots_listed(&self, agent: &str, answer: &Value) -> Result<Option<Vec<Root>>, ErrorObject> {
        let listed = roots_in(answer)?;
        let mut roots = self.roots.lock();
        if roots.get(agent) == Some(&listed) {
            return Ok(None);
        }
        roots.insert(agent.to_owned(), listed.clone());
        Ok(Some(listed))
    }

    /// Takes up the request `state` names, if it is `agent`'s `what`, with the answers the
    /// retry brought (those that answer none of its questions are left in `given`); the roots
    /// to offer the person.
    pub(super) fn resume(
        self: &Arc<Self>,
        state: &Value,
        agent: &str,
        what: &str,
        given: &mut Map<String, Value>,
    ) -> Result<(Resumed, Vec<Vec<Root>>), ErrorObject> {
        let unknown = || {
            ErrorObject::invalid_params(
                "the requestState is unknown, has expired, or is not of this call: call the tool again",
            )
        };
        let state = state.as_str().ok_or_else(unknown)?;
        let parked = {
            let mut calls = self.calls.lock();
            let parked = calls
                .get(state)
                .filter(|p| p.agent == agent && p.what == what)
                .ok_or_else(unknown)?;
            // A list of roots that is not one is refused before anything is answered.
            for asked in parked.asked.iter().filter(|a| a.is_roots()) {
                if let Some(answer) = given.get(&asked.key) {
                    roots_in(answer)?;
                }
            }
            calls.remove(state).ok_or_else(unknown)?
        };
        let Parked { running, asked, .. } = parked;
        self.settle(agent, what, *running, asked, given)
    }

    /// Answers each of `asked` that `given` answers (taken out of it) and parks the call
    /// on the rest, if any; the roots to offer the person.
    pub(super) fn settle(
        self: &Arc<Self>,
        agent: &str,
        what: &str,
        running: Running,
        asked: Vec<Asked>,
        given: &mut Map<String, Value>,
    ) -> Result<(Resumed, Vec<Vec<Root>>), ErrorObject> {
        let mut offers = Vec::new();
        let mut unanswered = Vec::new();
        for asked in asked {
            match given.remove(&asked.key) {
                Some(answer) => offers.extend(self.answer(agent, &running, &asked, answer)?),
                None => unanswered.push(asked),
            }
        }
        if unanswered.is_empty() {
            return Ok((Resumed::Running(running), offers));
        }
        let again = self.park(agent, what, running, unanswered);
        Ok((Resumed::AskAgain(again), offers))
    }
}

/// The roots in an agent's answer to `roots/list`.
fn roots_in(answer: &Value) -> Result<Vec<Root>, ErrorObject> {
    let listed: ListRootsResult = serde_json::from_value(answer.clone()).map_err(|e| {
        ErrorObject::invalid_params(format!("the answer to {}: {e}", method::ROOTS_LIST))
    })?;
    Ok(listed.roots)
}

/// 128 random bits, hex: not to be guessed.
pub(super) fn handle() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

//! Multi round-trip requests (2026-07-28): a `tools/call`, `prompts/get` or
//! `resources/read` may be answered with `resultType: "input_required"` and requests for
//! the client (sampling, elicitation, roots). They are answered by the same handler that
//! serves the stateful era's server requests (so the same approvals and dialogs apply),
//! and the request is sent again, with a new id, the answers and the echoed state.
//!
//! The requests of one result are answered together, not one after the other: a handler
//! that passes them on to someone else (a gateway, to the agent whose call this is) learns
//! through [`relaying`] under which key each was asked and which others of the same result
//! it passes on, so that it can pass them on together, as the server asked them.

use std::sync::{Arc, Mutex};

use futures_util::future::try_join_all;
use serde_json::{Map, Value};
use tokio::sync::Notify;

use super::ClientError;
use crate::connection::IncomingHandler;
use crate::types::{InputRequiredResult, RESULT_TYPE_INPUT_REQUIRED, method};

/// The input requests of one result while they are answered: how many are not yet either
/// answered or passed on, and the keys of those passed on.
struct Round {
    /// Every key of the result, in the server's order.
    keys: Vec<String>,
    state: Mutex<RoundState>,
    settled: Notify,
}

#[derive(Default)]
struct RoundState {
    relayed: Vec<String>,
    /// The keys no longer undecided, each counted once.
    decided: Vec<String>,
}

impl Round {
    fn new(requests: &Map<String, Value>) -> Self {
        Self {
            keys: requests.keys().cloned().collect(),
            state: Mutex::default(),
            settled: Notify::new(),
        }
    }

    /// Counts `key` as decided (answered here, or `relayed`), once.
    fn decide(&self, key: &str, relayed: bool) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.decided.iter().any(|k| k == key) {
            return;
        }
        state.decided.push(key.to_owned());
        if relayed {
            state.relayed.push(key.to_owned());
        }
        if self.settled_with(&state) {
            self.settled.notify_waiters();
        }
    }

    /// Whether every request of the round is decided.
    fn settled_with(&self, state: &RoundState) -> bool {
        state.decided.len() == self.keys.len()
    }

    /// The keys relayed, in the server's order, once every request of the round is decided.
    async fn relayed(&self) -> Vec<String> {
        loop {
            let settled = self.settled.notified();
            {
                let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
                if self.settled_with(&state) {
                    let relayed = |key: &&String| state.relayed.contains(key);
                    return self.keys.iter().filter(relayed).cloned().collect();
                }
            }
            settled.await;
        }
    }
}

tokio::task_local! {
    /// The key of the input request answered on this task, and its round.
    static ANSWERING: (String, Arc<Round>);
}

/// An input request a handler passes on: the key the server asked it under, and the keys
/// of every request of the same result that is passed on too (this one among them).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Relayed {
    pub key: String,
    pub round: Vec<String>,
}

/// For a handler about to pass on the input request it is answering (none when it answers
/// a request of the stateful era): waits until each other request of the same result is
/// either answered or about to be passed on too, and says which.
pub async fn relaying() -> Option<Relayed> {
    let (key, round) = ANSWERING
        .try_with(|(key, round)| (key.clone(), round.clone()))
        .ok()?;
    round.decide(&key, true);
    let round = round.relayed().await;
    Some(Relayed { key, round })
}

/// Rounds of input one request may ask for before it is given up: a server that asks
/// forever must not hold a person in dialogs forever.
pub const MAX_INPUT_ROUNDS: usize = 8;

/// The methods whose results may ask for input.
pub(super) fn may_ask(method_name: &str) -> bool {
    matches!(
        method_name,
        method::TOOLS_CALL | method::PROMPTS_GET | method::RESOURCES_READ
    )
}

/// The interim result, if `result` is one.
pub(super) fn input_required(result: &Value) -> Option<Result<InputRequiredResult, String>> {
    if result.get("resultType").and_then(Value::as_str) != Some(RESULT_TYPE_INPUT_REQUIRED) {
        return None;
    }
    Some(serde_json::from_value(result.clone()).map_err(|e| e.to_string()))
}

/// Answers every input request, all at once (each may wait on a person); the first refusal
/// refuses them all.
pub(super) async fn answer(
    handler: &dyn IncomingHandler,
    requests: &Map<String, Value>,
) -> Result<Map<String, Value>, ClientError> {
    let round = Arc::new(Round::new(requests));
    let answering = requests.iter().map(|(key, request)| {
        let round = round.clone();
        async move {
            let Some(name) = request.get("method").and_then(Value::as_str) else {
                return Err(ClientError::InvalidInputRequest {
                    key: key.clone(),
                    detail: "it names no method".into(),
                });
            };
            let params = request.get("params").cloned();
            let asked = handler.request(name.to_owned(), params);
            let answered = ANSWERING.scope((key.clone(), round.clone()), asked).await;
            round.decide(key, false);
            answered
                .map(|answer| (key.clone(), answer))
                .map_err(|error| ClientError::InputRefused {
                    method: name.to_owned(),
                    error,
                })
        }
    });
    Ok(try_join_all(answering).await?.into_iter().collect())
}

/// The original params with the answers and the server's state, for the retry; nothing of
/// an earlier round is kept that this round did not send.
pub(super) fn retry_params(
    mut params: Map<String, Value>,
    answers: Map<String, Value>,
    state: Option<String>,
) -> Map<String, Value> {
    params.remove("inputResponses");
    params.remove("requestState");
    if !answers.is_empty() {
        params.insert("inputResponses".into(), Value::Object(answers));
    }
    if let Some(state) = state {
        params.insert("requestState".into(), Value::String(state));
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Passes on sampling and forms (saying what `relaying` told it), answers roots itself.
    struct Relay;

    impl IncomingHandler for Relay {
        fn request(
            &self,
            method: String,
            _params: Option<Value>,
        ) -> crate::transport::BoxFuture<'static, Result<Value, crate::jsonrpc::ErrorObject>>
        {
            Box::pin(async move {
                if method == method::ROOTS_LIST {
                    return Ok(json!({"roots": []}));
                }
                let relayed = relaying().await.expect("answered in a round");
                Ok(serde_json::to_value(relayed).unwrap())
            })
        }

        fn notification(&self, _method: String, _params: Option<Value>) {}
    }

    #[tokio::test]
    async fn the_requests_of_one_result_are_passed_on_together_under_their_keys() {
        let requests = json!({
            "name": {"method": "elicitation/create", "params": {}},
            "folders": {"method": "roots/list"},
            "greeting": {"method": "sampling/createMessage", "params": {}},
        });
        let Value::Object(requests) = requests else {
            unreachable!()
        };
        let answers = answer(&Relay, &requests).await.unwrap();
        assert_eq!(
            Value::Object(answers),
            json!({
                "name": {"key": "name", "round": ["name", "greeting"]},
                "folders": {"roots": []},
                "greeting": {"key": "greeting", "round": ["name", "greeting"]},
            })
        );
    }

    #[test]
    fn a_retry_carries_this_rounds_answers_and_state_only() {
        let first = json!({"name": "t", "arguments": {"a": 1}});
        let Value::Object(first) = first else {
            unreachable!()
        };
        let mut answers = Map::new();
        answers.insert("k".into(), json!({"action": "accept"}));
        let second = retry_params(first, answers, Some("opaque".into()));
        assert_eq!(
            Value::Object(second.clone()),
            json!({"name": "t", "arguments": {"a": 1},
                   "inputResponses": {"k": {"action": "accept"}}, "requestState": "opaque"})
        );
        let third = retry_params(second, Map::new(), None);
        assert_eq!(
            Value::Object(third),
            json!({"name": "t", "arguments": {"a": 1}})
        );
    }

    #[test]
    fn only_an_explicit_input_required_is_interim() {
        assert!(input_required(&json!({"content": []})).is_none());
        assert!(input_required(&json!({"resultType": "complete"})).is_none());
        let interim = input_required(&json!({"resultType": "input_required", "requestState": "s"}));
        assert_eq!(
            interim.unwrap().unwrap().request_state.as_deref(),
            Some("s")
        );
    }
}

//! Multi round-trip requests (2026-07-28): a `tools/call`, `prompts/get` or
//! `resources/read` may be answered with `resultType: "input_required"` and requests for
//! the client (sampling, elicitation, roots). They are answered by the same handler that
//! serves the stateful era's server requests (so the same approvals and dialogs apply),
//! and the request is sent again, with a new id, the answers and the echoed state.

use serde_json::{Map, Value};

use super::ClientError;
use crate::connection::IncomingHandler;
use crate::types::{InputRequiredResult, RESULT_TYPE_INPUT_REQUIRED, method};

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

/// Answers every input request, one after the other (each may wait on a person).
pub(super) async fn answer(
    handler: &dyn IncomingHandler,
    requests: &Map<String, Value>,
) -> Result<Map<String, Value>, ClientError> {
    let mut answers = Map::new();
    for (key, request) in requests {
        let Some(name) = request.get("method").and_then(Value::as_str) else {
            return Err(ClientError::InvalidInputRequest {
                key: key.clone(),
                detail: "it names no method".into(),
            });
        };
        let params = request.get("params").cloned();
        match handler.request(name.to_owned(), params).await {
            Ok(answer) => {
                answers.insert(key.clone(), answer);
            }
            Err(error) => {
                return Err(ClientError::InputRefused {
                    method: name.to_owned(),
                    error,
                });
            }
        }
    }
    Ok(answers)
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

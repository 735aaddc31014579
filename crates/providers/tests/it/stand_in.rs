//! The stand-in provider refuses what the real APIs refuse, with their status and words,
//! so that a request our client gets wrong fails here as it would against them: each
//! case is a body sent as it is, over HTTP, beside a right one that is answered.

use serde_json::{Value, json};

use crate::common::*;

/// `base` with the fields of `changed` (a `null` removes one).
fn with(mut base: Value, changed: Value) -> Value {
    if let (Some(body), Value::Object(changed)) = (base.as_object_mut(), changed) {
        for (key, value) in changed {
            match value {
                Value::Null => body.remove(&key),
                value => body.insert(key, value),
            };
        }
    }
    base
}

fn anthropic(changed: Value) -> (Api, &'static str, Value) {
    let base = json!({"model": "claude-test", "max_tokens": 64,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]});
    (Api::Anthropic, "2023-06-01", with(base, changed))
}

fn openai(changed: Value) -> (Api, &'static str, Value) {
    let base = json!({"model": "gpt-test", "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}]});
    (Api::OpenAi, "", with(base, changed))
}

fn tool(name: &str, schema: Value) -> Value {
    json!({"name": name, "input_schema": schema})
}

fn function(name: &str) -> Value {
    json!({"type": "function", "function": {"name": name, "parameters": {"type": "object"}}})
}

/// Sends `body` as it is, with Anthropic's `version` header when it has one; the status
/// and the error's message.
async fn send(stand_in: &StandIn, api: Api, version: &str, body: &Value) -> (u16, String) {
    let path = match api {
        Api::OpenAi => "/v1/chat/completions",
        Api::Anthropic => "/v1/messages",
    };
    let mut request = reqwest::Client::new()
        .post(format!("{}{path}", stand_in.url))
        .header("content-type", "application/json")
        .body(body.to_string());
    if !version.is_empty() {
        request = request.header("anthropic-version", version);
    }
    let answer = request.send().await.expect("the stand-in answers");
    let status = answer.status().as_u16();
    let body = answer.bytes().await.expect("the answer's body");
    let body: Value = serde_json::from_slice(&body).unwrap_or_default();
    let message = body["error"]["message"].as_str().unwrap_or_default();
    (status, message.to_owned())
}

#[tokio::test]
async fn the_stand_in_refuses_what_the_apis_refuse() {
    let object = json!({"type": "object"});
    let long_name = "n".repeat(65);
    let cases = [
        (
            anthropic(json!({"max_tokens": null})),
            "max_tokens: Field required",
        ),
        (
            anthropic(json!({"messages": []})),
            "messages: at least one message is required",
        ),
        (
            anthropic(
                json!({"messages": [{"role": "user", "content": [{"type": "text", "text": ""}]}]}),
            ),
            "messages: text content blocks must be non-empty",
        ),
        (
            anthropic(json!({"messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": [{"type": "text", "text": " \n"}]},
                {"role": "user", "content": "Still there?"},
            ]})),
            "messages: text content blocks must contain non-whitespace text",
        ),
        (
            anthropic(json!({"messages": [
                {"role": "user", "content": []},
                {"role": "assistant", "content": "Hello"},
            ]})),
            "messages.0: all messages must have non-empty content except for the optional final assistant message",
        ),
        (
            anthropic(json!({"messages": [
                {"role": "user", "content": "Add"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "add", "input": {}}]},
                {"role": "user", "content": "What now?"},
            ]})),
            "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
        ),
        (
            anthropic(json!({"model": "claude-sonnet-4-6", "messages": [
                {"role": "user", "content": "Name a colour."},
                {"role": "assistant", "content": "The colour is"},
            ]})),
            "This model does not support assistant message prefill. The conversation must end with a user message.",
        ),
        (
            anthropic(json!({"temperature": 1.5})),
            "temperature: Input should be less than or equal to 1",
        ),
        (
            (
                Api::Anthropic,
                "2026-10-21",
                anthropic(json!({"temperature": 0.5})).2,
            ),
            "temperature: Extra inputs are not permitted",
        ),
        (
            anthropic(json!({"tools": [tool("files.read", object.clone())]})),
            "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
        ),
        (
            anthropic(json!({"tools": [tool("read", json!({"type": "string"}))]})),
            "tools.0.custom.input_schema.type: Input should be 'object'",
        ),
        (
            openai(
                json!({"tools": (0..129).map(|i| function(&format!("f{i}"))).collect::<Vec<_>>()}),
            ),
            "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead.",
        ),
        (
            openai(json!({"model": "o3-mini", "temperature": 0.3})),
            "Unsupported value: 'temperature' does not support 0.3 with this model. Only the default (1) value is supported.",
        ),
        (
            openai(json!({"messages": []})),
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        ),
        (
            openai(
                json!({"messages": [{"role": "tool", "tool_call_id": "call_1", "content": "5"}]}),
            ),
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[0])",
        ),
        (
            openai(json!({"tools": [function("files.read")]})),
            "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
        ),
        (
            openai(json!({"tools": [function(&long_name)]})),
            "Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
        ),
        (
            openai(json!({"max_tokens": 0})),
            "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
        ),
        (
            openai(json!({"max_tokens": null, "max_completion_tokens": 0})),
            "Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
        ),
        (
            openai(json!({"temperature": 2.5})),
            "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.",
        ),
        (
            openai(json!({"stop": ["a", "b", "c", "d", "e"]})),
            "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead.",
        ),
        (
            openai(json!({"stream_options": {"include_usage": true}})),
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        ),
        (
            openai(json!({"tool_choice": "required"})),
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        ),
    ];
    let answered = json!({"content": [{"text": "Fine."}]});
    let stand_in = StandIn::start(json!({"turns": [answered, answered]})).await;
    for ((api, version, body), expected) in &cases {
        let answer = send(&stand_in, *api, version, body).await;
        assert_eq!(answer, (400, (*expected).to_owned()), "{api:?} {body}");
    }
    // The same requests made right are answered.
    let right = [
        anthropic(json!({"temperature": 1, "tools": [tool("files_read", object.clone())]})),
        openai(json!({"temperature": 2, "stop": ["a", "b", "c", "d"],
            "tools": [function(&"n".repeat(64))], "tool_choice": "required"})),
    ];
    for (api, version, body) in &right {
        let (status, message) = send(&stand_in, *api, version, body).await;
        assert_eq!(status, 200, "{api:?} {body}: {message}");
    }
}

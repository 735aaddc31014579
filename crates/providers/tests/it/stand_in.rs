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
    let path = api.path();
    post(stand_in, path, version, body).await
}

/// Sends `body` as it is to `path`; the status and the error's message.
async fn post(stand_in: &StandIn, path: &str, version: &str, body: &Value) -> (u16, String) {
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

fn responses(changed: Value) -> Value {
    let base = json!({"model": "gpt-test", "max_output_tokens": 64,
        "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]});
    with(base, changed)
}

/// The input of a round of one function call: the person's question, the call, then
/// `after` (its output, or not).
fn called(after: &[Value]) -> Value {
    let mut input = vec![
        json!({"role": "user", "content": "Add 2 and 3."}),
        json!({"type": "function_call", "call_id": "call_standin_1_0", "name": "add", "arguments": r#"{"a":2,"b":3}"#}),
    ];
    input.extend_from_slice(after);
    json!({"input": input})
}

fn output(call_id: &str) -> Value {
    json!({"type": "function_call_output", "call_id": call_id, "output": "5"})
}

#[tokio::test]
async fn the_stand_in_refuses_what_the_responses_api_refuses() {
    let tool = |name: &str| json!({"type": "function", "name": name, "parameters": {"type": "object"}, "strict": true});
    let text = |text: &str| json!({"input": [{"role": "user", "content": [{"type": "input_text", "text": text}]}]});
    let cases = [
        (
            responses(json!({"model": null})),
            "Missing required parameter: 'model'.",
        ),
        (
            responses(json!({"input": null})),
            "Missing required parameter: 'input'.",
        ),
        (
            responses(json!({"messages": [{"role": "user", "content": "Hi"}]})),
            "Unknown parameter: 'messages'.",
        ),
        (
            responses(json!({"max_tokens": 64})),
            "Unknown parameter: 'max_tokens'.",
        ),
        (
            responses(json!({"max_output_tokens": 8})),
            "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 8 instead.",
        ),
        (
            responses(json!({"temperature": 2.5})),
            "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.",
        ),
        (
            responses(json!({"model": "gpt-5", "temperature": 0.3})),
            "Unsupported parameter: 'temperature' is not supported with this model.",
        ),
        (
            responses(json!({"reasoning": {"effort": "extreme"}})),
            "Invalid value: 'extreme'. Supported values are: 'minimal', 'low', 'medium', and 'high'.",
        ),
        (
            responses(json!({"reasoning": {"summary": "long"}})),
            "Invalid value: 'long'. Supported values are: 'auto', 'concise', and 'detailed'.",
        ),
        (
            responses(json!({"instructions": ["Be brief."]})),
            "Invalid type for 'instructions': expected a string, but got an array instead.",
        ),
        (
            responses(json!({"store": "no"})),
            "Invalid type for 'store': expected a boolean, but got a string instead.",
        ),
        (
            responses(json!({"tool_choice": "any"})),
            "Invalid value: 'any'. Supported values are: 'none', 'auto', and 'required'.",
        ),
        (
            responses(json!({"include": ["reasoning.encrypted"]})),
            "Invalid value: 'reasoning.encrypted'. Supported values are: 'file_search_call.results', 'web_search_call.results', 'web_search_call.action.sources', 'message.input_image.image_url', 'computer_call_output.output.image_url', 'code_interpreter_call.outputs', 'reasoning.encrypted_content', and 'message.output_text.logprobs'.",
        ),
        (
            responses(json!({"tools": [tool("files.read")]})),
            "Invalid 'tools[0].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
        ),
        (
            responses(json!({"tools": [tool(&"n".repeat(65))]})),
            "Invalid 'tools[0].name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
        ),
        (
            responses(
                json!({"tools": [{"type": "function", "function": {"name": "add", "parameters": {}}}]}),
            ),
            "Unknown parameter: 'tools[0].function'.",
        ),
        (
            responses(json!({"tools": [{"type": "function", "name": "add"}]})),
            "Missing required parameter: 'tools[0].parameters'.",
        ),
        (
            responses(text("")),
            "Invalid 'input[0].content[0].text': empty string. Expected a string with minimum length 1, but got an empty string instead.",
        ),
        (
            responses(text(" \n")),
            "Invalid 'input[0].content[0].text': empty string. Expected a string with minimum length 1, but got an empty string instead.",
        ),
        (
            responses(
                json!({"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}),
            ),
            "Invalid value: 'text'. Supported values are: 'input_text', 'input_image', and 'input_file'.",
        ),
        (
            responses(
                json!({"input": [{"role": "assistant", "content": [{"type": "input_text", "text": "Hi"}]}]}),
            ),
            "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
        ),
        (
            responses(json!({"input": [{"role": "tool", "content": "5"}]})),
            "Invalid value: 'tool'. Supported values are: 'user', 'assistant', 'system', and 'developer'.",
        ),
        (
            responses(json!({"input": [{"type": "tool_result", "call_id": "call_1"}]})),
            "Invalid value: 'tool_result'. Supported values are: 'message', 'function_call', 'function_call_output', and 'reasoning'.",
        ),
        (
            responses(json!({"input": [{"role": "user", "content": "Add"}, output("call_1")]})),
            "No tool call found for function call output with call_id call_1.",
        ),
        (
            responses(called(&[])),
            "No tool output found for function call call_standin_1_0.",
        ),
        (
            responses(called(&[
                json!({"type": "function_call_output", "tool_call_id": "call_standin_1_0", "output": "5"}),
            ])),
            "Unknown parameter: 'input[2].tool_call_id'.",
        ),
        (
            responses(json!({"input": [
                {"role": "user", "content": "Add"},
                {"type": "function_call", "call_id": "call_1", "name": "add", "arguments": {"a": 2}},
                output("call_1"),
            ]})),
            "Invalid type for 'input[1].arguments': expected a string, but got an object instead.",
        ),
        // The script's first turn reasoned before its call: under `reasoning_back` the
        // call comes back after that reasoning item, as the answer gave it.
        (
            responses(called(&[output("call_standin_1_0")])),
            "Item 'fc_standin_1_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_standin_1_0'.",
        ),
        (
            responses(json!({"input": [
                {"role": "user", "content": "Add 2 and 3."},
                {"type": "reasoning", "id": "rs_standin_1_0", "summary": [], "encrypted_content": "gAAAAAB-changed"},
                {"type": "function_call", "call_id": "call_standin_1_0", "name": "add", "arguments": r#"{"a":2,"b":3}"#},
                output("call_standin_1_0"),
            ]})),
            "The encrypted content for item rs_standin_1_0 could not be verified.",
        ),
        (
            responses(json!({"previous_response_id": "resp_1"})),
            "Previous response with id 'resp_1' not found.",
        ),
    ];
    let reasoned = json!({"content": [
        {"thinking": "Add them."},
        {"tool_call": {"name": "add", "arguments": {"a": 2, "b": 3}}},
    ]});
    let answered = json!({"content": [{"text": "Fine."}]});
    let stand_in = StandIn::start(json!({"reasoning_back": true,
        "turns": [reasoned, answered, answered, answered]}))
    .await;
    for (body, expected) in &cases {
        let answer = post(&stand_in, "/v1/responses", "", body).await;
        assert_eq!(answer, (400, (*expected).to_owned()), "{body}");
    }
    // The same requests made right are answered.
    let right = [
        responses(
            json!({"max_output_tokens": 16, "temperature": 2, "tool_choice": "required",
            "tools": [tool(&"n".repeat(64))], "reasoning": {"effort": "minimal", "summary": "auto"},
            "include": ["reasoning.encrypted_content"], "store": false, "instructions": "Be brief.",
            "parallel_tool_calls": false, "prompt_cache_key": "chat-1"}),
        ),
        responses(json!({"input": [
            {"role": "user", "content": "Add 2 and 3."},
            {"type": "reasoning", "id": "rs_standin_1_0", "summary": [], "encrypted_content": "gAAAAABstandin_1_0"},
            {"type": "function_call", "call_id": "call_standin_1_0", "name": "add", "arguments": r#"{"a":2,"b":3}"#},
            output("call_standin_1_0"),
            {"role": "assistant", "content": [{"type": "output_text", "text": "It is 5."}]},
            {"role": "developer", "content": "Be brief."},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "And this?"},
                {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "auto"},
            ]},
        ]})),
        responses(json!({"input": "Hi", "stream": false})),
    ];
    for body in &right {
        let (status, message) = post(&stand_in, "/v1/responses", "", body).await;
        assert_eq!(status, 200, "{body}: {message}");
    }
}

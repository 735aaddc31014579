//! OpenAI's Chat Completions as OpenAI's API writes it: the request checks it makes, its
//! error bodies, its chunks (`chat.completion.chunk`, the role first, `usage: null` on
//! each chunk and a last chunk with no choices when usage is asked for, `data: [DONE]`)
//! and its whole answers (`chat.completion`).

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::answer::{Answer, Part, broken_off, data_frame, parts, retry_headers, text_of};
use crate::dialect::Dialect;
use crate::script::{Failure, FailureKind, ModelEntry, Turn};

pub const CREATED: u64 = 1_700_000_000;
const FINGERPRINT: &str = "fp_standin";

fn error_body(message: &str, kind: &str, param: Option<&str>, code: Option<&str>) -> Value {
    json!({"error": {"message": message, "type": kind, "param": param, "code": code}})
}

/// The 401 for a missing or wrong `Authorization: Bearer` key.
pub fn check_key(expected: Option<&str>, authorization: Option<&str>) -> Option<Answer> {
    let expected = expected?;
    let given = authorization.and_then(|a| a.strip_prefix("Bearer "));
    let message = match given {
        Some(key) if key == expected => return None,
        Some(key) => format!(
            "Incorrect API key provided: {}. You can find your API key at https://platform.openai.com/account/api-keys.",
            masked(key)
        ),
        None => "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).".to_owned(),
    };
    Some(Answer::json(
        401,
        error_body(
            &message,
            "invalid_request_error",
            None,
            Some("invalid_api_key"),
        ),
    ))
}

/// A key as OpenAI shows it in errors: its ends only.
fn masked(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 8 {
        return "*".repeat(chars.len());
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}{}{tail}", "*".repeat(chars.len() - 7))
}

pub fn invalid(message: String, param: &str) -> Answer {
    Answer::json(
        400,
        error_body(&message, "invalid_request_error", Some(param), None),
    )
}

/// A value out of the bounds the API's schema sets, refused with its `code`.
pub fn out_of_bounds(message: String, param: &str, code: &str) -> Answer {
    Answer::json(
        400,
        error_body(&message, "invalid_request_error", Some(param), Some(code)),
    )
}

/// An integer below the least the API takes.
pub fn below_minimum(param: &str, least: i64, got: &Value) -> Answer {
    out_of_bounds(
        format!(
            "Invalid '{param}': integer below minimum value. Expected a value >= {least}, but got {got} instead."
        ),
        param,
        "integer_below_min_value",
    )
}

/// A function's name (at `param`) as the API takes it: `^[a-zA-Z0-9_-]+$`, 64 characters
/// at most.
pub fn check_function_name(name: &str, param: &str) -> Result<(), Answer> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
    {
        return Err(out_of_bounds(
            format!(
                "Invalid '{param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
            ),
            param,
            "invalid_value",
        ));
    }
    let length = name.chars().count();
    if length > 64 {
        return Err(out_of_bounds(
            format!(
                "Invalid '{param}': string too long. Expected a string with maximum length 64, but got a string with length {length} instead."
            ),
            param,
            "string_above_max_length",
        ));
    }
    Ok(())
}

/// The request's temperature, if it gives one within the bounds the API sets (0..=2).
pub fn temperature(body: &Value) -> Result<Option<&Value>, Answer> {
    let Some(t) = body.get("temperature").filter(|t| !t.is_null()) else {
        return Ok(None);
    };
    let (bound, code) = match t.as_f64() {
        Some(v) if v > 2.0 => (
            "above maximum value. Expected a value <= 2",
            "decimal_above_max_value",
        ),
        Some(v) if v < 0.0 => (
            "below minimum value. Expected a value >= 0",
            "decimal_below_min_value",
        ),
        _ => return Ok(Some(t)),
    };
    Err(out_of_bounds(
        format!("Invalid 'temperature': decimal {bound}, but got {t} instead."),
        "temperature",
        code,
    ))
}

/// Whether the request's model reasons: one of OpenAI's reasoning families, or one named
/// a reasoner behind a compatible server.
pub fn reasoning_model(body: &Value) -> bool {
    let model = body["model"].as_str().unwrap_or_default();
    ["o1", "o3", "o4", "gpt-5"]
        .iter()
        .any(|family| model.starts_with(family))
        || model.contains("reasoner")
}

/// The bounds the API sets on the parameters a client may get wrong: at least one
/// message, a token limit of at least 1, a temperature within 0..=2, at most 4 stop
/// sequences, `stream_options` only with `stream`, `tool_choice` only with tools, and
/// functions named as it takes them.
fn check_parameters(body: &Value) -> Result<(), Answer> {
    if body["messages"].as_array().is_some_and(Vec::is_empty) {
        return Err(out_of_bounds(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.".into(),
            "messages",
            "empty_array",
        ));
    }
    for field in ["max_tokens", "max_completion_tokens"] {
        if let Some(limit) = body
            .get(field)
            .filter(|l| l.as_i64().is_some_and(|l| l < 1))
        {
            return Err(below_minimum(field, 1, limit));
        }
    }
    if let Some(t) = temperature(body)? {
        // A reasoning model takes its default temperature alone.
        if reasoning_model(body) && t.as_f64() != Some(1.0) {
            return Err(out_of_bounds(
                format!(
                    "Unsupported value: 'temperature' does not support {t} with this model. Only the default (1) value is supported."
                ),
                "temperature",
                "unsupported_value",
            ));
        }
    }
    if let Some(stop) = body["stop"].as_array().filter(|s| s.len() > 4) {
        return Err(out_of_bounds(
            format!(
                "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length {} instead.",
                stop.len()
            ),
            "stop",
            "array_above_max_length",
        ));
    }
    if body.get("stream_options").is_some_and(|o| !o.is_null()) && body["stream"] != true {
        return Err(invalid(
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.".into(),
            "stream_options",
        ));
    }
    let tools = body["tools"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if body.get("tool_choice").is_some_and(|c| !c.is_null()) && tools.is_empty() {
        return Err(invalid(
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.".into(),
            "tool_choice",
        ));
    }
    if tools.len() > 128 {
        return Err(out_of_bounds(
            format!(
                "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length {} instead.",
                tools.len()
            ),
            "tools",
            "array_above_max_length",
        ));
    }
    for (n, tool) in tools.iter().enumerate() {
        let name = tool["function"]["name"].as_str().unwrap_or_default();
        check_function_name(name, &format!("tools[{n}].function.name"))?;
    }
    Ok(())
}

/// The checks OpenAI makes that a client may fail: the fields it requires, their bounds,
/// and every tool call answered by a `tool` message before the conversation goes on.
pub fn validate(body: &Value) -> Result<(), Answer> {
    if !body.get("model").is_some_and(Value::is_string) {
        return Err(invalid(
            "you must provide a model parameter".into(),
            "model",
        ));
    }
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return Err(invalid(
            "Missing required parameter: 'messages'.".into(),
            "messages",
        ));
    };
    check_parameters(body)?;
    let mut waiting: Vec<String> = Vec::new();
    for (n, message) in messages.iter().enumerate() {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("");
        if role == "tool" {
            let id = message
                .get("tool_call_id")
                .and_then(Value::as_str)
                .unwrap_or("");
            if !waiting.iter().any(|w| w == id) {
                return Err(invalid(
                    format!(
                        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[{n}])"
                    ),
                    &format!("messages.[{n}].role"),
                ));
            }
            waiting.retain(|w| w != id);
            continue;
        }
        if !waiting.is_empty() {
            return Err(invalid(
                format!(
                    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
                    waiting.join(", ")
                ),
                &format!("messages.[{n}].role"),
            ));
        }
        if !matches!(role, "system" | "developer" | "user" | "assistant") {
            return Err(invalid(
                format!(
                    "Invalid value: '{role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'."
                ),
                &format!("messages[{n}].role"),
            ));
        }
        if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
            for call in calls {
                let arguments = call.pointer("/function/arguments");
                if !arguments.is_some_and(Value::is_string) {
                    return Err(invalid(
                        "Invalid type for 'messages.tool_calls.function.arguments': expected a string.".into(),
                        &format!("messages.[{n}].tool_calls"),
                    ));
                }
                if let Some(id) = call.get("id").and_then(Value::as_str) {
                    waiting.push(id.to_owned());
                }
            }
        }
    }
    if !waiting.is_empty() {
        return Err(invalid(
            format!(
                "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
                waiting.join(", ")
            ),
            "messages",
        ));
    }
    Ok(())
}

/// A request refused as invalid, in OpenAI's words for it.
pub fn bad_request(message: String) -> Answer {
    invalid(message, "messages")
}

/// OpenAI's refusal of an image sent to a model that reads none.
pub const NO_IMAGES: &str = "Invalid content type. image_url is only supported by certain models.";

/// The answer to a body that is not JSON.
pub fn unreadable() -> Answer {
    Answer::json(
        400,
        json!({"error": {"message": "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)", "type": "invalid_request_error", "param": null, "code": null}}),
    )
}

/// The answer when the script has no turn left for a request.
pub fn no_turn_left() -> Answer {
    Answer::json(
        500,
        json!({"error": {"message": "the stand-in has no scripted turn left", "type": "server_error", "param": null, "code": null}}),
    )
}

/// The text of the last tool result in the request.
pub fn last_tool_result(body: &Value) -> String {
    let messages = body.get("messages").and_then(Value::as_array);
    let last = messages.and_then(|m| {
        m.iter()
            .rev()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("tool"))
    });
    text_of(last.and_then(|m| m.get("content")))
}

/// A failure's status and body; `input` is the parameter a context too long names (the
/// protocol's `messages` or `input`).
pub fn failure_body(failure: &Failure, input: &str) -> (u16, Value) {
    let (status, message, kind, code) = match failure.kind {
        FailureKind::Unauthorized => (
            401,
            "Incorrect API key provided: sk-te*****-key. You can find your API key at https://platform.openai.com/account/api-keys.",
            "invalid_request_error",
            Some("invalid_api_key"),
        ),
        FailureKind::RateLimited => (
            429,
            "Rate limit reached for gpt-test in organization org-standin on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
            "requests",
            Some("rate_limit_exceeded"),
        ),
        FailureKind::ServerError => (
            500,
            "The server had an error while processing your request. Sorry about that!",
            "server_error",
            None,
        ),
        FailureKind::Overloaded => (
            503,
            "The engine is currently overloaded, please try again later.",
            "server_error",
            None,
        ),
        FailureKind::ContextTooLong => (
            400,
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
            "invalid_request_error",
            Some("context_length_exceeded"),
        ),
        FailureKind::NotFound => (
            404,
            "The model `gpt-missing` does not exist or you do not have access to it.",
            "invalid_request_error",
            Some("model_not_found"),
        ),
        FailureKind::QuotaExceeded => (
            429,
            "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
            "insufficient_quota",
            Some("insufficient_quota"),
        ),
    };
    let message = failure.message.as_deref().unwrap_or(message);
    let param = (failure.kind == FailureKind::ContextTooLong).then_some(input);
    (status, error_body(message, kind, param, code))
}

pub fn failure(failure: &Failure, input: &str) -> Answer {
    let (status, body) = failure_body(failure, input);
    Answer::Json {
        status,
        headers: retry_headers(failure),
        body,
    }
}

fn finish_reason(stop: &str) -> &str {
    match stop {
        "end_turn" | "stop_sequence" => "stop",
        "max_tokens" => "length",
        "tool_use" => "tool_calls",
        "refusal" => "content_filter",
        other => other,
    }
}

fn usage(turn: &Turn) -> Value {
    let u = turn.usage;
    json!({
        "prompt_tokens": u.input,
        "completion_tokens": u.output,
        "total_tokens": u.input + u.output,
        "prompt_tokens_details": {"cached_tokens": u.cached, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": u.reasoning, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
    })
}

/// A tool call's id: the script's, or the stand-in's for the call `n` of the turn.
pub fn call_id(id: Option<&str>, turn_number: usize, n: usize) -> String {
    id.map_or_else(|| format!("call_standin_{turn_number}_{n}"), str::to_owned)
}

/// The answer to a scripted turn, streamed (as `dialect`'s server writes it) or whole as
/// the request asks.
pub fn answer(turn: &Turn, request: &Value, turn_number: usize, dialect: Dialect) -> Answer {
    let model = request.get("model").and_then(Value::as_str).unwrap_or("");
    let parts = parts(turn, &last_tool_result(request));
    let id = format!("chatcmpl-standin-{turn_number}");
    if request.get("stream").and_then(Value::as_bool) != Some(true) {
        return whole(turn, &parts, &id, model, turn_number);
    }
    let with_usage = request.pointer("/stream_options/include_usage") == Some(&json!(true));
    let chunk = |choices: Value| {
        let mut chunk = json!({
            "id": id,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model,
            "choices": choices,
        });
        if let Some(fingerprint) = dialect.fingerprint() {
            chunk["system_fingerprint"] = json!(fingerprint);
        }
        if with_usage && dialect.usage_chunk() {
            chunk["usage"] = Value::Null;
        }
        chunk
    };
    let choice = |delta: Value, finish: Option<&str>| {
        let mut choice = json!({"index": 0, "delta": delta, "finish_reason": finish});
        dialect.choice_extras(&mut choice);
        chunk(json!([choice]))
    };
    let frame = |chunk: Value| data_frame(&chunk.to_string());
    let mut frames: Vec<String> = dialect
        .opening()
        .map(|delta| frame(choice(delta, None)))
        .into_iter()
        .collect();
    let mut calls = 0;
    for part in &parts {
        match part {
            Part::Text(pieces, _) => {
                frames.extend(pieces.iter().map(|p| frame(choice(dialect.text(p), None))));
            }
            Part::Thinking { pieces, .. } => frames.extend(
                pieces
                    .iter()
                    .filter_map(|p| dialect.thinking(p))
                    .map(|delta| frame(choice(delta, None))),
            ),
            Part::ToolCall {
                id: given,
                name,
                arguments,
                pieces,
            } => {
                let index = calls;
                calls += 1;
                let id = given.map_or_else(|| dialect.call_id(turn_number, index), str::to_owned);
                let deltas = dialect.tool_call(index, &id, name, arguments, pieces);
                frames.extend(deltas.into_iter().map(|delta| frame(choice(delta, None))));
            }
        }
    }
    let broken = broken_off(
        turn,
        &mut frames,
        |failure| data_frame(&failure_body(failure, "messages").1.to_string()),
        data_frame(r#"{"id":"chatcmpl-standin","choices":[{"delta":"#),
    );
    if !broken {
        let finish = dialect.finish_reason(finish_reason(turn.stop()));
        let mut last = choice(dialect.closing(), Some(finish));
        dialect.closing_extras(&mut last, usage(turn));
        frames.push(frame(last));
        if with_usage && dialect.usage_chunk() {
            let mut usage_only = chunk(json!([]));
            usage_only["usage"] = usage(turn);
            frames.push(frame(usage_only));
        }
        frames.push(data_frame("[DONE]"));
    }
    Answer::events(turn, frames)
}

fn whole(turn: &Turn, parts: &[Part<'_>], id: &str, model: &str, turn_number: usize) -> Answer {
    let mut text = String::new();
    let mut calls = Vec::new();
    for part in parts {
        match part {
            Part::Text(pieces, _) => text.extend(pieces.iter().map(String::as_str)),
            Part::Thinking { .. } => {}
            Part::ToolCall {
                id: given,
                name,
                arguments,
                ..
            } => calls.push(json!({
                "id": call_id(*given, turn_number, calls.len()),
                "type": "function",
                "function": {"name": name, "arguments": arguments.to_string()},
            })),
        }
    }
    let mut message = json!({
        "role": "assistant",
        "content": if text.is_empty() && !calls.is_empty() { Value::Null } else { json!(text) },
        "refusal": null,
        "annotations": [],
    });
    if !calls.is_empty() {
        message["tool_calls"] = Value::Array(calls);
    }
    Answer::json(
        200,
        json!({
            "id": id,
            "object": "chat.completion",
            "created": CREATED,
            "model": model,
            "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish_reason(turn.stop())}],
            "usage": usage(turn),
            "service_tier": "default",
            "system_fingerprint": FINGERPRINT,
        }),
    )
}

pub fn models(models: &[ModelEntry]) -> Answer {
    let mut seen = HashSet::new();
    let data: Vec<Value> = models
        .iter()
        .filter(|m| seen.insert(m.id.as_str()))
        .map(|m| json!({"id": m.id, "object": "model", "created": CREATED, "owned_by": "stand-in"}))
        .collect();
    Answer::json(200, json!({"object": "list", "data": data}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_masked_as_openai_does() {
        assert_eq!(masked("sk-test-key-1234"), "sk-*********1234");
        assert_eq!(masked("short"), "*****");
    }
}

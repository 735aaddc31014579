//! Anthropic's Messages as Anthropic's API writes it: the request checks it makes (the
//! version header, the required fields, the sampling parameters as the version takes
//! them, tools named as it takes them, no empty message or text, tool results first and
//! answering every tool use), its error bodies, its named events (a `ping` after the
//! first block starts, an empty `partial_json` first as the API sends, a thinking block's
//! signature last, citations after their text, `message_delta` with the output tokens)
//! and its whole messages; the paged model list.

use serde_json::{Value, json};

use crate::answer::{Answer, Part, broken_off, named_frame, parts, retry_headers, text_of};
use crate::script::{Failure, FailureKind, ModelEntry, Turn};

fn error_body(kind: &str, message: &str, request: usize) -> Value {
    json!({
        "type": "error",
        "error": {"type": kind, "message": message},
        "request_id": format!("req_standin_{request}"),
    })
}

fn error(status: u16, kind: &str, message: &str, request: usize) -> Answer {
    Answer::Json {
        status,
        headers: vec![("request-id", format!("req_standin_{request}"))],
        body: error_body(kind, message, request),
    }
}

/// The 401 for a missing or wrong key, given in `x-api-key` or, as the official SDKs
/// send it since API version 2026-10-21, as `Authorization: Bearer`.
pub fn check_key(
    expected: Option<&str>,
    x_api_key: Option<&str>,
    authorization: Option<&str>,
    request: usize,
) -> Option<Answer> {
    let given = x_api_key.or_else(|| authorization.and_then(|a| a.strip_prefix("Bearer ")));
    let expected = expected?;
    match given {
        Some(key) if key == expected => None,
        Some(_) => Some(error(
            401,
            "authentication_error",
            "invalid x-api-key",
            request,
        )),
        None => Some(error(
            401,
            "authentication_error",
            "x-api-key header is required",
            request,
        )),
    }
}

/// The checks the API makes that a client may fail.
/// A request refused as invalid, in Anthropic's words for it.
pub fn bad_request(message: &str, request: usize) -> Answer {
    error(400, "invalid_request_error", message, request)
}

pub fn validate(version: Option<&str>, body: &Value, request: usize) -> Result<(), Answer> {
    let invalid = |message: String| error(400, "invalid_request_error", &message, request);
    let Some(version) = version else {
        return Err(invalid("anthropic-version: header is required".into()));
    };
    for field in ["model", "max_tokens", "messages"] {
        if body.get(field).is_none() {
            return Err(invalid(format!("{field}: Field required")));
        }
    }
    if !body.get("max_tokens").is_some_and(Value::is_u64) {
        return Err(invalid(
            "max_tokens: Input should be a valid integer".into(),
        ));
    }
    check_sampling(version, body).map_err(&invalid)?;
    check_tools(body).map_err(&invalid)?;
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return Err(invalid("messages: Input should be a valid list".into()));
    };
    if messages.is_empty() {
        return Err(invalid("messages: at least one message is required".into()));
    }
    let model = body.get("model").and_then(Value::as_str).unwrap_or("");
    let ends_on_assistant = messages.last().is_some_and(|m| m["role"] == "assistant");
    if ends_on_assistant && !prefills(model) {
        return Err(invalid(
            "This model does not support assistant message prefill. The conversation must end with a user message.".into(),
        ));
    }
    let mut open_calls: Vec<String> = Vec::new();
    for (n, message) in messages.iter().enumerate() {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("");
        if !matches!(role, "user" | "assistant") {
            return Err(invalid(format!(
                "messages.{n}.role: Input should be 'user' or 'assistant'"
            )));
        }
        let (empty, blocks): (bool, Vec<&Value>) = match message.get("content") {
            Some(Value::String(text)) => (text.is_empty(), Vec::new()),
            Some(Value::Array(blocks)) => (blocks.is_empty(), blocks.iter().collect()),
            _ => return Err(invalid(format!("messages.{n}.content: Field required"))),
        };
        let final_assistant = role == "assistant" && n + 1 == messages.len();
        if empty && !final_assistant {
            return Err(invalid(format!(
                "messages.{n}: all messages must have non-empty content except for the optional final assistant message"
            )));
        }
        let kind = |b: &Value| {
            b.get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        if blocks.iter().any(|b| kind(b) == "text" && b["text"] == "") {
            return Err(invalid(
                "messages: text content blocks must be non-empty".into(),
            ));
        }
        // Text of white space alone is refused where no other text stands beside it.
        let texts: Vec<&str> = match message.get("content") {
            Some(Value::String(text)) => vec![text.as_str()],
            _ => blocks
                .iter()
                .filter(|b| kind(b) == "text")
                .filter_map(|b| b["text"].as_str())
                .collect(),
        };
        if !final_assistant && !texts.is_empty() && texts.iter().all(|t| t.trim().is_empty()) {
            return Err(invalid(
                "messages: text content blocks must contain non-whitespace text".into(),
            ));
        }
        if role == "user" {
            let answered: Vec<&str> = blocks
                .iter()
                .filter(|b| kind(b) == "tool_result")
                .filter_map(|b| b.get("tool_use_id").and_then(Value::as_str))
                .collect();
            if let Some(missing) = open_calls
                .iter()
                .find(|id| !answered.contains(&id.as_str()))
            {
                return Err(invalid(format!(
                    "messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: {missing}. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
                )));
            }
            if let Some(stray) = answered
                .iter()
                .find(|id| !open_calls.iter().any(|o| o == *id))
            {
                return Err(invalid(format!(
                    "messages.{n}.content: unexpected `tool_use_id` found in `tool_result` blocks: {stray}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
                )));
            }
            let results = blocks
                .iter()
                .take_while(|b| kind(b) == "tool_result")
                .count();
            if blocks
                .iter()
                .skip(results)
                .any(|b| kind(b) == "tool_result")
            {
                return Err(invalid(format!(
                    "messages.{n}: tool_result blocks must come before any other content in a user message"
                )));
            }
            for block in &blocks {
                check_block(block, n, &invalid)?;
            }
            open_calls.clear();
        } else {
            if !open_calls.is_empty() {
                return Err(invalid(format!(
                    "messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: {}",
                    open_calls.join(", ")
                )));
            }
            for block in &blocks {
                if kind(block) == "tool_use" {
                    if !block.get("input").is_some_and(Value::is_object) {
                        return Err(invalid(format!(
                            "messages.{n}.content.tool_use.input: Input should be a valid dictionary"
                        )));
                    }
                    if let Some(id) = block.get("id").and_then(Value::as_str) {
                        open_calls.push(id.to_owned());
                    }
                }
            }
        }
    }
    Ok(())
}

/// Whether `model` continues a final assistant message (a prefill): Claude models before
/// 4.6 do; from Claude 4.6 on, such a request is refused.
fn prefills(model: &str) -> bool {
    let version: Vec<u32> = model
        .split('-')
        .skip_while(|part| !matches!(*part, "opus" | "sonnet" | "haiku"))
        .skip(1)
        // A date (`claude-opus-4-20250514`) is no minor version.
        .map_while(|part| part.parse().ok().filter(|_| part.len() <= 2))
        .take(2)
        .collect();
    match version.as_slice() {
        [major, minor, ..] => (*major, *minor) < (4, 6),
        [major] => *major < 4,
        [] => true,
    }
}

/// The sampling parameters: gone from version 2026-10-21 on (the official SDKs no longer
/// send them); before, a temperature or `top_p` within 0..=1.
fn check_sampling(version: &str, body: &Value) -> Result<(), String> {
    for field in ["temperature", "top_p", "top_k"] {
        let Some(value) = body.get(field) else {
            continue;
        };
        if version >= "2026-10-21" {
            return Err(format!("{field}: Extra inputs are not permitted"));
        }
        match value.as_f64() {
            _ if field == "top_k" => {}
            None => return Err(format!("{field}: Input should be a valid number")),
            Some(v) if v > 1.0 => {
                return Err(format!("{field}: Input should be less than or equal to 1"));
            }
            Some(v) if v < 0.0 => {
                return Err(format!(
                    "{field}: Input should be greater than or equal to 0"
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// A tool of the client's own: named `^[a-zA-Z0-9_-]{1,64}$`, its input an object.
fn check_tools(body: &Value) -> Result<(), String> {
    let tools = body["tools"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (n, tool) in tools.iter().enumerate() {
        if tool.get("type").is_some_and(|t| t != "custom") {
            continue; // one of the API's own tools
        }
        let name = tool["name"].as_str().unwrap_or_default();
        let named = (1..=64).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c));
        if !named {
            return Err(format!(
                "tools.{n}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'"
            ));
        }
        if tool["input_schema"]["type"] != "object" {
            return Err(format!(
                "tools.{n}.custom.input_schema.type: Input should be 'object'"
            ));
        }
    }
    Ok(())
}

/// An image must say its source as the API takes it.
fn check_block(block: &Value, n: usize, invalid: &dyn Fn(String) -> Answer) -> Result<(), Answer> {
    let images: Vec<&Value> = match block.get("type").and_then(Value::as_str) {
        Some("image") => vec![block],
        Some("tool_result") => match block.get("content") {
            Some(Value::Array(items)) => items
                .iter()
                .filter(|i| i.get("type").and_then(Value::as_str) == Some("image"))
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    for image in images {
        let source = image.get("source").unwrap_or(&Value::Null);
        let ok = match source.get("type").and_then(Value::as_str) {
            Some("base64") => {
                source.get("media_type").is_some_and(Value::is_string)
                    && source.get("data").is_some_and(Value::is_string)
            }
            Some("url") => source.get("url").is_some_and(Value::is_string),
            _ => false,
        };
        if !ok {
            return Err(invalid(format!(
                "messages.{n}.content.image.source: Input tag does not match any of the expected tags: 'base64', 'url'"
            )));
        }
    }
    Ok(())
}

/// The answer to a body that is not JSON.
pub fn unreadable() -> Answer {
    Answer::json(
        400,
        json!({"type": "error", "error": {"type": "invalid_request_error", "message": "There was an issue with your request body: it is not valid JSON"}}),
    )
}

/// The answer when the script has no turn left for a request.
pub fn no_turn_left() -> Answer {
    Answer::json(
        500,
        json!({"type": "error", "error": {"type": "api_error", "message": "the stand-in has no scripted turn left"}}),
    )
}

/// The text of the last tool result in the request.
pub fn last_tool_result(body: &Value) -> String {
    let messages = body.get("messages").and_then(Value::as_array);
    let result = messages.and_then(|m| {
        m.iter()
            .rev()
            .filter_map(|m| m.get("content").and_then(Value::as_array))
            .flat_map(|blocks| blocks.iter().rev())
            .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
    });
    text_of(result.and_then(|r| r.get("content")))
}

/// A failure's status and body.
fn failure_body(failure: &Failure, request: usize) -> (u16, Value) {
    let (status, kind, message) = match failure.kind {
        FailureKind::Unauthorized => (401, "authentication_error", "invalid x-api-key"),
        FailureKind::RateLimited => (
            429,
            "rate_limit_error",
            "This request would exceed the rate limit for your organization of 50 requests per minute.",
        ),
        FailureKind::ServerError => (500, "api_error", "Internal server error"),
        FailureKind::Overloaded => (529, "overloaded_error", "Overloaded"),
        FailureKind::ContextTooLong => (
            400,
            "invalid_request_error",
            "prompt is too long: 208310 tokens > 200000 maximum",
        ),
        FailureKind::NotFound => (404, "not_found_error", "model: claude-missing"),
        FailureKind::QuotaExceeded => (
            400,
            "invalid_request_error",
            "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
        ),
    };
    let message = failure.message.as_deref().unwrap_or(message);
    (status, error_body(kind, message, request))
}

pub fn failure(failure: &Failure, request: usize) -> Answer {
    let (status, body) = failure_body(failure, request);
    let mut headers = vec![("request-id", format!("req_standin_{request}"))];
    headers.extend(retry_headers(failure));
    Answer::Json {
        status,
        headers,
        body,
    }
}

fn tool_use_id(id: Option<&str>, turn_number: usize, n: usize) -> String {
    id.map_or_else(|| format!("toolu_standin_{turn_number}_{n}"), str::to_owned)
}

fn usage(turn: &Turn, output: u64) -> Value {
    json!({
        "input_tokens": turn.usage.input,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output,
    })
}

/// The answer to a scripted turn, streamed or whole as the request asks.
pub fn answer(turn: &Turn, request: &Value, turn_number: usize) -> Answer {
    let model = request.get("model").and_then(Value::as_str).unwrap_or("");
    let parts = parts(turn, &last_tool_result(request));
    let id = format!("msg_standin_{turn_number}");
    if request.get("stream").and_then(Value::as_bool) != Some(true) {
        return whole(turn, &parts, &id, model, turn_number);
    }
    let frame = |event: &str, data: Value| named_frame(event, &data.to_string());
    let mut frames = vec![frame(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": null, "stop_sequence": null, "usage": usage(turn, 1),
        }}),
    )];
    let mut calls = 0;
    for (index, part) in parts.iter().enumerate() {
        let (start, deltas) = match part {
            Part::Text(pieces, citations) => {
                let mut start = json!({"type": "text", "text": ""});
                if !citations.is_empty() {
                    start["citations"] = json!([]);
                }
                let texts = pieces
                    .iter()
                    .map(|p| json!({"type": "text_delta", "text": p}));
                let cited = citations
                    .iter()
                    .map(|c| json!({"type": "citations_delta", "citation": c}));
                (start, texts.chain(cited).collect::<Vec<_>>())
            }
            Part::Thinking { pieces, signature } => {
                let thoughts = pieces
                    .iter()
                    .map(|p| json!({"type": "thinking_delta", "thinking": p}));
                let signed = json!({"type": "signature_delta", "signature": signature});
                let start = json!({"type": "thinking", "thinking": "", "signature": ""});
                (start, thoughts.chain([signed]).collect())
            }
            Part::ToolCall {
                id: given,
                name,
                pieces,
                ..
            } => {
                let block = json!({"type": "tool_use", "id": tool_use_id(*given, turn_number, calls), "name": name, "input": {}});
                calls += 1;
                let deltas = std::iter::once("")
                    .chain(pieces.iter().map(String::as_str))
                    .map(|p| json!({"type": "input_json_delta", "partial_json": p}))
                    .collect();
                (block, deltas)
            }
        };
        frames.push(frame(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": start}),
        ));
        if index == 0 {
            frames.push(named_frame("ping", r#"{"type": "ping"}"#));
        }
        for delta in deltas {
            frames.push(frame(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": delta}),
            ));
        }
        frames.push(frame(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
    }
    let broken = broken_off(
        turn,
        &mut frames,
        |failure| named_frame("error", &failure_body(failure, turn_number).1.to_string()),
        named_frame("message_delta", r#"{"type":"message_delta","delta":"#),
    );
    if !broken {
        frames.push(frame(
            "message_delta",
            json!({"type": "message_delta",
                "delta": {"stop_reason": turn.stop(), "stop_sequence": turn.stop_sequence},
                "usage": {"output_tokens": turn.usage.output}}),
        ));
        frames.push(frame("message_stop", json!({"type": "message_stop"})));
    }
    Answer::events(turn, frames)
}

fn whole(turn: &Turn, parts: &[Part<'_>], id: &str, model: &str, turn_number: usize) -> Answer {
    let mut calls = 0;
    let content: Vec<Value> = parts
        .iter()
        .map(|part| match part {
            Part::Text(pieces, []) => {
                json!({"type": "text", "text": pieces.concat()})
            }
            Part::Text(pieces, citations) => {
                json!({"type": "text", "text": pieces.concat(), "citations": citations})
            }
            Part::Thinking { pieces, signature } => {
                json!({"type": "thinking", "thinking": pieces.concat(), "signature": signature})
            }
            Part::ToolCall {
                id: given,
                name,
                arguments,
                ..
            } => {
                calls += 1;
                json!({"type": "tool_use", "id": tool_use_id(*given, turn_number, calls - 1), "name": name, "input": arguments})
            }
        })
        .collect();
    Answer::json(
        200,
        json!({
            "id": id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": turn.stop(),
            "stop_sequence": turn.stop_sequence,
            "usage": usage(turn, turn.usage.output),
        }),
    )
}

/// One page of the model list: `limit` (20 by default, at most 1000, and at most the
/// script's page size) after `after_id` or before `before_id`.
pub fn models(models: &[ModelEntry], page_size: usize, query: &str) -> Answer {
    let param = |name: &str| {
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_owned())
    };
    let limit = param("limit")
        .and_then(|l| l.parse::<usize>().ok())
        .unwrap_or(20)
        .clamp(1, 1000)
        .min(page_size.max(1));
    let position = |id: &str| models.iter().position(|m| m.id == id);
    let (start, end) = if let Some(after) = param("after_id") {
        let start = position(&after).map_or(models.len(), |p| p + 1);
        (start, (start + limit).min(models.len()))
    } else if let Some(before) = param("before_id") {
        let end = position(&before).unwrap_or(0);
        (end.saturating_sub(limit), end)
    } else {
        (0, limit.min(models.len()))
    };
    let page = &models[start..end];
    let data: Vec<Value> = page
        .iter()
        .map(|m| {
            json!({
                "type": "model",
                "id": m.id,
                "display_name": m.display_name.as_deref().unwrap_or(&m.id),
                "created_at": "2025-05-14T00:00:00Z",
            })
        })
        .collect();
    Answer::json(
        200,
        json!({
            "data": data,
            "has_more": end < models.len(),
            "first_id": page.first().map(|m| &m.id),
            "last_id": page.last().map(|m| &m.id),
        }),
    )
}

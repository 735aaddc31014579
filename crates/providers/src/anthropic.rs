//! Anthropic Messages: `POST {base}/v1/messages` and `GET {base}/v1/models` (paginated),
//! with the `anthropic-version` and `x-api-key` headers.
//!
//! A stream is `message_start`, then for each content block `content_block_start`,
//! `content_block_delta`s (`text_delta`, or `input_json_delta` for a tool call's
//! arguments) and `content_block_stop`, then `message_delta` (stop reason, output tokens)
//! and `message_stop`; `ping` may come anywhere and `error` ends it. A thinking block
//! (`thinking_delta`s, then its `signature_delta`) and a redacted one are kept as the
//! model's [`Reasoning`], and sent back as they came: the API checks their signatures.
//! Blocks and deltas of kinds this crate does not use (citations, server tools) are
//! skipped.
//!
//! The system prompt, the last tool and the conversation so far (its last block) each end
//! a prefix kept in the API's prompt cache (`cache_control`), so that a conversation's
//! later requests read them from it: three of the four breakpoints a request may have.
//!
//! The key goes in `x-api-key` with version `2023-06-01`, which Anthropic's API and every
//! Anthropic-compatible server take. (The official Python SDK 2.10 sends
//! `Authorization: Bearer` with version `2026-10-21` instead; the stand-in provider takes
//! both, and the wire format read here is the one that SDK's types describe.)

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::error::{Error, ProviderError};
use crate::model::*;
use crate::sse::SseEvent;

/// The API version sent in every request.
pub const API_VERSION: &str = "2023-06-01";

/// Marks the end of a prefix the API keeps in its prompt cache (for five minutes).
fn cached() -> Value {
    json!({"type": "ephemeral"})
}

/// The JSON body of a Messages request.
pub(crate) fn request_body(request: &Request, stream: bool) -> Value {
    // Blank text and the messages it leaves empty are gone already (see `sendable`).
    let mut messages: Vec<Value> = request
        .messages
        .iter()
        .map(|message| match message {
            Message::User(content) => json!({"role": "user", "content": user_blocks(content)}),
            Message::Assistant(content) => {
                let blocks: Vec<Value> = content.iter().filter_map(assistant_block).collect();
                json!({"role": "assistant", "content": blocks})
            }
        })
        // An answer of nothing but another provider's reasoning has nothing to send.
        .filter(|message| message["content"].as_array().is_none_or(|c| !c.is_empty()))
        .collect();
    // The last message is the person's (see `sendable`), whose blocks all take a mark.
    if let Some(last) = messages
        .last_mut()
        .and_then(|m| m["content"].as_array_mut())
        .and_then(|blocks| blocks.last_mut())
    {
        last["cache_control"] = cached();
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("max_tokens".into(), json!(request.max_tokens));
    // The system prompt and the tools, the same in every request of a conversation, are
    // read from the prompt cache after the first (a tenth of the price of input, and
    // sooner): each ends a cached prefix.
    if let Some(system) = &request.system {
        body.insert(
            "system".into(),
            json!([{"type": "text", "text": system, "cache_control": cached()}]),
        );
    }
    body.insert("messages".into(), Value::Array(messages));
    match request
        .effort
        .and_then(|effort| thinking_budget(effort, request.max_tokens))
    {
        // Extended thinking takes no temperature.
        Some(budget) => {
            body.insert(
                "thinking".into(),
                json!({"type": "enabled", "budget_tokens": budget}),
            );
        }
        None => {
            if let Some(temperature) = request.temperature {
                body.insert("temperature".into(), json!(temperature));
            }
        }
    }
    if !request.stop_sequences.is_empty() {
        body.insert("stop_sequences".into(), json!(request.stop_sequences));
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|tool| {
            let mut def = Map::new();
            def.insert("name".into(), json!(tool.name));
            if let Some(description) = &tool.description {
                def.insert("description".into(), json!(description));
            }
            def.insert("input_schema".into(), tool.parameters.clone());
            Value::Object(def)
        });
        let mut tools: Vec<Value> = tools.collect();
        if let Some(last) = tools.last_mut() {
            last["cache_control"] = cached();
        }
        body.insert("tools".into(), Value::Array(tools));
        match request.tool_choice {
            ToolChoice::Auto => {}
            ToolChoice::Required => _ = body.insert("tool_choice".into(), json!({"type": "any"})),
            ToolChoice::None => _ = body.insert("tool_choice".into(), json!({"type": "none"})),
        }
    }
    if stream {
        body.insert("stream".into(), json!(true));
    }
    Value::Object(body)
}

/// A user message's blocks, tool results first (the API refuses them after other blocks).
fn user_blocks(content: &[UserContent]) -> Vec<Value> {
    let (results, rest): (Vec<_>, Vec<_>) = content
        .iter()
        .partition(|c| matches!(c, UserContent::ToolResult(_)));
    results
        .into_iter()
        .chain(rest)
        .map(|item| match item {
            UserContent::Text(text) => json!({"type": "text", "text": text}),
            UserContent::Image(image) => image_block(image),
            UserContent::ToolResult(result) => {
                let content: Vec<Value> = result
                    .content
                    .iter()
                    .map(|piece| match piece {
                        ToolResultContent::Text(text) => json!({"type": "text", "text": text}),
                        ToolResultContent::Image(image) => image_block(image),
                    })
                    .collect();
                let mut block = json!({
                    "type": "tool_result",
                    "tool_use_id": result.call_id,
                    "content": content,
                });
                if result.is_error {
                    block["is_error"] = json!(true);
                }
                block
            }
        })
        .collect()
}

fn image_block(image: &Image) -> Value {
    let source = match image {
        Image::Base64 { media_type, data } => {
            json!({"type": "base64", "media_type": media_type, "data": data})
        }
        Image::Url { url } => json!({"type": "url", "url": url}),
    };
    json!({"type": "image", "source": source})
}

/// The tokens of extended thinking an effort is worth, within the answer's (the API asks
/// for at least 1,024, and fewer than `max_tokens`); `None` when the answer is too short
/// to think in.
fn thinking_budget(effort: Effort, max_tokens: u32) -> Option<u32> {
    const LEAST: u32 = 1024;
    let wanted = match effort {
        Effort::Low => LEAST,
        Effort::Medium => 4096,
        Effort::High => 16_384,
    };
    let room = max_tokens.checked_sub(1)?;
    (room >= LEAST).then(|| wanted.min(room))
}

/// A block of an answer as it goes back; `None` for reasoning that did not come from
/// Anthropic (unsigned: the API would refuse it).
fn assistant_block(content: &AssistantContent) -> Option<Value> {
    Some(match content {
        AssistantContent::Reasoning(reasoning) => match (&reasoning.redacted, &reasoning.signature)
        {
            (Some(data), _) => json!({"type": "redacted_thinking", "data": data}),
            (None, Some(signature)) => {
                json!({"type": "thinking", "thinking": reasoning.text, "signature": signature})
            }
            (None, None) => return None,
        },
        AssistantContent::Text(text) => json!({"type": "text", "text": text}),
        AssistantContent::ToolCall(call) => {
            // `input` must be an object; arguments that were not JSON were refused when
            // the call was answered, and are sent back as none.
            let input = match &call.arguments {
                Value::Object(_) => call.arguments.clone(),
                _ => json!({}),
            };
            json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input})
        }
    })
}

fn stop_reason(reason: Option<&str>, sequence: Option<&str>) -> StopReason {
    match reason {
        Some("end_turn") | None => StopReason::EndTurn,
        Some("max_tokens") => StopReason::MaxTokens,
        Some("stop_sequence") => StopReason::StopSequence(sequence.map(str::to_owned)),
        Some("tool_use") => StopReason::ToolUse,
        Some("refusal") => StopReason::Refused,
        Some("model_context_window_exceeded") => StopReason::ContextWindowExceeded,
        Some(other) => StopReason::Other(other.to_owned()),
    }
}

/// Reads a `usage` object into `usage`, keeping what it does not say.
fn read_usage(value: &Value, usage: &mut Usage) {
    let count = |key: &str| value.get(key).and_then(Value::as_u64);
    if let Some(n) = count("input_tokens") {
        usage.input_tokens = n;
    }
    if let Some(n) = count("output_tokens") {
        usage.output_tokens = n;
    }
    if let Some(n) = count("cache_read_input_tokens") {
        usage.cache_read_tokens = Some(n);
    }
    if let Some(n) = count("cache_creation_input_tokens") {
        usage.cache_write_tokens = Some(n);
    }
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// Reads a whole (non-streamed) Messages answer.
pub(crate) fn parse_response(body: &Value) -> Result<Response, Error> {
    if body.get("type").and_then(Value::as_str) == Some("error") {
        return Err(ProviderError::from_json(body).into_stream_error());
    }
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::MalformedResponse("a message without content".into()))?;
    let mut content = Vec::new();
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                content.push(AssistantContent::Text(
                    text(block, "text").unwrap_or_default(),
                ));
            }
            Some("thinking") => content.push(AssistantContent::Reasoning(Reasoning {
                text: text(block, "thinking").unwrap_or_default(),
                signature: text(block, "signature"),
                ..Reasoning::default()
            })),
            Some("redacted_thinking") => content.push(AssistantContent::Reasoning(Reasoning {
                redacted: text(block, "data"),
                ..Reasoning::default()
            })),
            Some("tool_use") => {
                let (Some(id), Some(name)) = (text(block, "id"), text(block, "name")) else {
                    return Err(Error::MalformedResponse(
                        "a tool_use block without id or name".into(),
                    ));
                };
                let arguments = block.get("input").cloned().unwrap_or_else(|| json!({}));
                content.push(AssistantContent::ToolCall(ToolCall {
                    id,
                    name,
                    arguments,
                }));
            }
            _ => {}
        }
    }
    let usage = body.get("usage").map(|u| {
        let mut usage = Usage::default();
        read_usage(u, &mut usage);
        usage
    });
    Ok(Response {
        id: text(body, "id"),
        model: text(body, "model"),
        content,
        stop_reason: stop_reason(
            body.get("stop_reason").and_then(Value::as_str),
            body.get("stop_sequence").and_then(Value::as_str),
        ),
        usage,
    })
}

/// One page of `GET /v1/models`: its models, and the id to continue after if there are
/// more.
pub(crate) fn parse_models_page(body: &Value) -> Result<(Vec<ModelInfo>, Option<String>), Error> {
    let data = body
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::MalformedResponse("a model list without `data`".into()))?;
    let models = data
        .iter()
        .filter_map(|m| {
            Some(ModelInfo {
                id: text(m, "id")?,
                display_name: text(m, "display_name"),
            })
        })
        .collect();
    let more = body.get("has_more").and_then(Value::as_bool) == Some(true);
    Ok((models, more.then(|| text(body, "last_id")).flatten()))
}

enum Block {
    ToolUse {
        index: usize,
        id: String,
        name: String,
        arguments: String,
        /// The `input` given at the block's start (a full one when nothing is streamed).
        initial: Value,
    },
    Other,
}

/// Turns the events of a Messages stream into [`Event`]s.
#[derive(Default)]
pub(crate) struct StreamDecoder {
    started: bool,
    /// Open content blocks by the provider's block index.
    blocks: HashMap<u64, Block>,
    calls: usize,
    usage: Usage,
    stop_reason: Option<String>,
    stop_sequence: Option<String>,
    finished: bool,
}

impl StreamDecoder {
    /// Reads one event; `Ok(true)` once the stream is complete.
    pub fn event(&mut self, sse: &SseEvent, out: &mut Vec<Event>) -> Result<bool, Error> {
        let (data, kind) = sse.typed()?;
        let kind = kind.as_str();
        if kind != "message_start" && kind != "ping" && kind != "error" && !self.started {
            return Err(Error::MalformedStream(format!(
                "`{kind}` before message_start"
            )));
        }
        match kind {
            "message_start" => {
                let message = data.get("message").unwrap_or(&Value::Null);
                self.started = true;
                if let Some(usage) = message.get("usage") {
                    read_usage(usage, &mut self.usage);
                }
                out.push(Event::Start {
                    id: text(message, "id"),
                    model: text(message, "model"),
                });
            }
            "content_block_start" => self.block_start(&data, out)?,
            "content_block_delta" => self.block_delta(&data, out)?,
            "content_block_stop" => {
                let index = block_index(&data)?;
                if let Some(Block::ToolUse {
                    index,
                    id,
                    name,
                    arguments,
                    initial,
                }) = self.blocks.remove(&index)
                {
                    let arguments = if arguments.is_empty() {
                        initial
                    } else {
                        parse_arguments(&arguments)
                    };
                    out.push(Event::ToolCallEnd {
                        index,
                        call: ToolCall {
                            id,
                            name,
                            arguments,
                        },
                    });
                }
            }
            "message_delta" => {
                let delta = data.get("delta").unwrap_or(&Value::Null);
                if let Some(reason) = text(delta, "stop_reason") {
                    self.stop_reason = Some(reason);
                }
                if let Some(sequence) = text(delta, "stop_sequence") {
                    self.stop_sequence = Some(sequence);
                }
                if let Some(usage) = data.get("usage") {
                    read_usage(usage, &mut self.usage);
                }
            }
            "message_stop" => {
                if !self.blocks.is_empty() {
                    return Err(Error::MalformedStream(
                        "message_stop with content blocks still open".into(),
                    ));
                }
                self.finished = true;
                out.push(Event::Finish {
                    stop_reason: stop_reason(
                        self.stop_reason.as_deref(),
                        self.stop_sequence.as_deref(),
                    ),
                    usage: Some(self.usage),
                });
                return Ok(true);
            }
            "error" => return Err(ProviderError::from_json(&data).into_stream_error()),
            _ => {} // `ping`, and events added to the protocol later
        }
        Ok(false)
    }

    /// The body ended: an error unless `message_stop` came.
    pub fn end(&mut self, _out: &mut Vec<Event>) -> Result<(), Error> {
        if self.finished {
            Ok(())
        } else {
            Err(Error::MalformedStream(
                "the stream ended before message_stop".into(),
            ))
        }
    }

    fn block_start(&mut self, data: &Value, out: &mut Vec<Event>) -> Result<(), Error> {
        let index = block_index(data)?;
        let block = data.get("content_block").unwrap_or(&Value::Null);
        let opened = match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                let text = text(block, "text").unwrap_or_default();
                if !text.is_empty() {
                    out.push(Event::TextDelta(text));
                }
                Block::Other
            }
            Some("thinking") => {
                out.push(Event::ReasoningStart);
                if let Some(thinking) = text(block, "thinking").filter(|t| !t.is_empty()) {
                    out.push(Event::ReasoningDelta(thinking));
                }
                if let Some(signature) = text(block, "signature").filter(|s| !s.is_empty()) {
                    out.push(Event::ReasoningSignature(signature));
                }
                Block::Other
            }
            Some("redacted_thinking") => {
                out.push(Event::ReasoningRedacted(
                    text(block, "data").unwrap_or_default(),
                ));
                Block::Other
            }
            Some("tool_use") => {
                let (Some(id), Some(name)) = (text(block, "id"), text(block, "name")) else {
                    return Err(Error::MalformedStream(
                        "a tool_use block without id or name".into(),
                    ));
                };
                let call = self.calls;
                self.calls += 1;
                out.push(Event::ToolCallStart {
                    index: call,
                    id: id.clone(),
                    name: name.clone(),
                });
                Block::ToolUse {
                    index: call,
                    id,
                    name,
                    arguments: String::new(),
                    initial: block.get("input").cloned().unwrap_or_else(|| json!({})),
                }
            }
            _ => Block::Other,
        };
        if self.blocks.insert(index, opened).is_some() {
            return Err(Error::MalformedStream(format!(
                "content block {index} started twice"
            )));
        }
        Ok(())
    }

    fn block_delta(&mut self, data: &Value, out: &mut Vec<Event>) -> Result<(), Error> {
        let index = block_index(data)?;
        let delta = data.get("delta").unwrap_or(&Value::Null);
        let Some(block) = self.blocks.get_mut(&index) else {
            return Err(Error::MalformedStream(format!(
                "a delta for content block {index}, which is not open"
            )));
        };
        match (delta.get("type").and_then(Value::as_str), block) {
            (Some("text_delta"), _) => {
                let text = text(delta, "text").unwrap_or_default();
                if !text.is_empty() {
                    out.push(Event::TextDelta(text));
                }
            }
            (
                Some("input_json_delta"),
                Block::ToolUse {
                    index, arguments, ..
                },
            ) => {
                let piece = text(delta, "partial_json").unwrap_or_default();
                if !piece.is_empty() {
                    arguments.push_str(&piece);
                    out.push(Event::ToolCallDelta {
                        index: *index,
                        arguments: piece,
                    });
                }
            }
            (Some("thinking_delta"), _) => {
                let thinking = text(delta, "thinking").unwrap_or_default();
                if !thinking.is_empty() {
                    out.push(Event::ReasoningDelta(thinking));
                }
            }
            (Some("signature_delta"), _) => {
                if let Some(signature) = text(delta, "signature") {
                    out.push(Event::ReasoningSignature(signature));
                }
            }
            _ => {} // citations, and deltas added to the protocol later
        }
        Ok(())
    }
}

fn block_index(data: &Value) -> Result<u64, Error> {
    data.get("index")
        .and_then(Value::as_u64)
        .ok_or_else(|| Error::MalformedStream("a content block event without index".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(events: &[(&str, &str)]) -> Result<Vec<Event>, Error> {
        let mut decoder = StreamDecoder::default();
        let mut out = Vec::new();
        for (event, data) in events {
            let sse = SseEvent {
                event: (*event).into(),
                data: (*data).into(),
            };
            if decoder.event(&sse, &mut out)? {
                return Ok(out);
            }
        }
        decoder.end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn tool_results_lead_the_user_message_and_images_are_sources() {
        let request = Request::new(
            "claude-test",
            64,
            vec![Message::User(vec![
                UserContent::Text("here".into()),
                UserContent::ToolResult(ToolResult {
                    call_id: "toolu_1".into(),
                    content: vec![ToolResultContent::Image(Image::Base64 {
                        media_type: "image/png".into(),
                        data: "iVBO".into(),
                    })],
                    is_error: true,
                    not_made: false,
                }),
            ])],
        );
        assert_eq!(
            request_body(&request, false),
            json!({
                "model": "claude-test",
                "max_tokens": 64,
                "messages": [{"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": true, "content": [
                        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}},
                    ]},
                    // The conversation so far ends a cached prefix.
                    {"type": "text", "text": "here", "cache_control": {"type": "ephemeral"}},
                ]}],
            })
        );
    }

    #[test]
    fn a_tool_use_block_without_deltas_keeps_its_input() {
        let events = decode(&[
            ("message_start", r#"{"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":3,"output_tokens":1}}}"#),
            ("content_block_start", r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{"k":1}}}"#),
            ("content_block_delta", r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}"#),
            ("content_block_stop", r#"{"type":"content_block_stop","index":0}"#),
            ("message_delta", r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}"#),
            ("message_stop", r#"{"type":"message_stop"}"#),
        ])
        .unwrap();
        assert!(events.contains(&Event::ToolCallEnd {
            index: 0,
            call: ToolCall {
                id: "t".into(),
                name: "n".into(),
                arguments: json!({"k": 1})
            }
        }));
        assert_eq!(
            events.last(),
            Some(&Event::Finish {
                stop_reason: StopReason::ToolUse,
                usage: Some(Usage {
                    input_tokens: 3,
                    output_tokens: 9,
                    ..Usage::default()
                })
            })
        );
    }

    #[test]
    fn a_stream_cut_short_or_out_of_order_is_an_error() {
        let start = (
            "message_start",
            r#"{"type":"message_start","message":{"id":"m"}}"#,
        );
        assert!(matches!(decode(&[start]), Err(Error::MalformedStream(_))));
        let delta = (
            "content_block_delta",
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"x"}}"#,
        );
        assert!(matches!(
            decode(&[start, delta]),
            Err(Error::MalformedStream(_))
        ));
        assert!(matches!(decode(&[delta]), Err(Error::MalformedStream(_))));
    }
}

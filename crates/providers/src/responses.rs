//! OpenAI's Responses API: `POST {base}/responses`, where the base ends in `/v1`; the
//! models are listed as for Chat Completions (`GET {base}/models`).
//!
//! OpenAI's newer models are meant for it (some only answer there), and it is the one
//! where a reasoning model's reasoning goes back between tool calls: nothing is kept at
//! OpenAI (`store: false`), so each reasoning item is asked for with its encrypted content
//! and sent back as it came, within the turn under way (see `sendable`). A reasoning
//! model's summary of its thinking is asked for and shown as its reasoning.
//!
//! The protocol has no stop sequences: a request's are not sent. A tool's result that
//! holds images goes back as a list of parts, which the API takes in a tool's output.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::error::{Error, ProviderError};
use crate::model::*;
use crate::profile::Profile;
use crate::sse::SseEvent;

/// The fewest output tokens the API accepts.
const LEAST_OUTPUT: u32 = 16;

/// The JSON body of a Responses request.
pub(crate) fn request_body(request: &Request, profile: &Profile, stream: bool) -> Value {
    let mut input = Vec::new();
    for message in &request.messages {
        match message {
            Message::User(content) => user_items(content, &mut input),
            Message::Assistant(content) => input.extend(content.iter().filter_map(assistant_item)),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    if let Some(system) = &request.system {
        body.insert("instructions".into(), json!(system));
    }
    body.insert("input".into(), Value::Array(input));
    body.insert(
        "max_output_tokens".into(),
        json!(request.max_tokens.max(LEAST_OUTPUT)),
    );
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    // A model that reasons is asked for a summary it shows, and for its reasoning whole,
    // encrypted, to send back; one that does not would refuse both.
    if request.effort.is_some() || profile.reasons == Some(true) {
        let mut reasoning = json!({"summary": "auto"});
        if let Some(effort) = request.effort {
            reasoning["effort"] = json!(effort);
        }
        body.insert("reasoning".into(), reasoning);
        body.insert("include".into(), json!(["reasoning.encrypted_content"]));
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|tool| {
            let mut function = Map::new();
            function.insert("type".into(), json!("function"));
            function.insert("name".into(), json!(tool.name));
            if let Some(description) = &tool.description {
                function.insert("description".into(), json!(description));
            }
            function.insert("parameters".into(), tool.parameters.clone());
            // Strict schemas must close every object and require every property: MCP
            // tools' schemas seldom do.
            function.insert("strict".into(), json!(false));
            Value::Object(function)
        });
        body.insert("tools".into(), Value::Array(tools.collect()));
        match request.tool_choice {
            ToolChoice::Auto => {}
            ToolChoice::Required => _ = body.insert("tool_choice".into(), json!("required")),
            ToolChoice::None => _ = body.insert("tool_choice".into(), json!("none")),
        }
    }
    if let Some(key) = &request.cache_key {
        body.insert("prompt_cache_key".into(), json!(key));
    }
    body.insert("store".into(), json!(false));
    if stream {
        body.insert("stream".into(), json!(true));
    }
    Value::Object(body)
}

/// A user message: its tool results first, each a `function_call_output`, then the rest
/// as one message.
fn user_items(content: &[UserContent], out: &mut Vec<Value>) {
    let mut parts = Vec::new();
    for item in content {
        match item {
            UserContent::ToolResult(result) => out.push(tool_output(result)),
            UserContent::Text(text) => parts.push(json!({"type": "input_text", "text": text})),
            UserContent::Image(image) => parts.push(image_part(image)),
        }
    }
    if !parts.is_empty() {
        out.push(json!({"role": "user", "content": parts}));
    }
}

/// A tool's result: its text, or its parts when it holds images. The output has no error
/// flag: the text says it.
fn tool_output(result: &ToolResult) -> Value {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|piece| match piece {
            ToolResultContent::Text(text) => Some(text.as_str()),
            ToolResultContent::Image(_) => None,
        })
        .collect();
    let mut text = texts.join("\n");
    if result.is_error {
        text = format!("Error: {text}");
    }
    let has_images = result
        .content
        .iter()
        .any(|piece| matches!(piece, ToolResultContent::Image(_)));
    let output = if has_images {
        let images = result.content.iter().filter_map(|piece| match piece {
            ToolResultContent::Image(image) => Some(image_part(image)),
            ToolResultContent::Text(_) => None,
        });
        let text = (!text.is_empty()).then(|| json!({"type": "input_text", "text": text}));
        Value::Array(text.into_iter().chain(images).collect())
    } else {
        json!(text)
    };
    json!({"type": "function_call_output", "call_id": result.call_id, "output": output})
}

fn image_part(image: &Image) -> Value {
    let url = match image {
        Image::Base64 { media_type, data } => format!("data:{media_type};base64,{data}"),
        Image::Url { url } => url.clone(),
    };
    json!({"type": "input_image", "image_url": url, "detail": "auto"})
}

/// A part of an answer as it goes back; `None` for reasoning that is not this API's with
/// its encrypted content (nothing is kept at OpenAI to find it by its id).
fn assistant_item(content: &AssistantContent) -> Option<Value> {
    Some(match content {
        AssistantContent::Reasoning(reasoning) => {
            let item = reasoning.item.as_ref()?;
            let encrypted = item.encrypted_content.as_ref()?;
            let summary: Vec<Value> = (!reasoning.text.is_empty())
                .then(|| json!({"type": "summary_text", "text": reasoning.text}))
                .into_iter()
                .collect();
            json!({"type": "reasoning", "id": item.id, "summary": summary,
                "encrypted_content": encrypted})
        }
        AssistantContent::Text(text) => json!({"role": "assistant", "content": text}),
        AssistantContent::ToolCall(call) => {
            let arguments = match &call.arguments {
                Value::String(raw) => raw.clone(),
                other => other.to_string(),
            };
            json!({"type": "function_call", "call_id": call.id, "name": call.name,
                "arguments": arguments})
        }
    })
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn usage(value: &Value) -> Option<Usage> {
    let input = value.get("input_tokens")?.as_u64()?;
    Some(Usage {
        input_tokens: input,
        output_tokens: value
            .get("output_tokens")
            .and_then(Value::as_u64)
            .unwrap_or_default(),
        cache_read_tokens: value
            .pointer("/input_tokens_details/cached_tokens")
            .and_then(Value::as_u64),
        cache_write_tokens: None,
    })
}

/// Why a response ended, from its `status` and `incomplete_details`.
fn stop_reason(response: &Value, called_tools: bool, refused: bool) -> StopReason {
    match response.get("status").and_then(Value::as_str) {
        Some("incomplete") => {
            match response
                .pointer("/incomplete_details/reason")
                .and_then(Value::as_str)
            {
                Some("max_output_tokens") => StopReason::MaxTokens,
                Some("content_filter") => StopReason::Refused,
                other => StopReason::Other(other.unwrap_or("incomplete").to_owned()),
            }
        }
        _ if refused => StopReason::Refused,
        _ if called_tools => StopReason::ToolUse,
        _ => StopReason::EndTurn,
    }
}

/// The reasoning item `item` (its summary's text, its id and encrypted content).
fn reasoning_of(item: &Value) -> Reasoning {
    let summary: Vec<&str> = item
        .get("summary")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    Reasoning {
        text: summary.join("\n\n"),
        item: reasoning_item(item),
        ..Reasoning::default()
    }
}

fn reasoning_item(item: &Value) -> Option<ReasoningItem> {
    Some(ReasoningItem {
        id: text(item, "id")?,
        encrypted_content: text(item, "encrypted_content"),
    })
}

fn tool_call(item: &Value) -> Result<ToolCall, Error> {
    let (Some(id), Some(name)) = (text(item, "call_id"), text(item, "name")) else {
        return Err(Error::MalformedResponse(
            "a function call without its call_id or name".into(),
        ));
    };
    Ok(ToolCall {
        id,
        name,
        arguments: parse_arguments(&text(item, "arguments").unwrap_or_default()),
    })
}

/// Reads a whole (non-streamed) response.
pub(crate) fn parse_response(body: &Value) -> Result<Response, Error> {
    if body.get("error").is_some_and(|e| !e.is_null()) {
        return Err(ProviderError::from_json(body).into_stream_error());
    }
    let output = body
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::MalformedResponse("a response without output".into()))?;
    let mut content = Vec::new();
    let mut refused = false;
    for item in output {
        match item.get("type").and_then(Value::as_str) {
            Some("reasoning") => content.push(AssistantContent::Reasoning(reasoning_of(item))),
            Some("function_call") => content.push(AssistantContent::ToolCall(tool_call(item)?)),
            Some("message") => {
                let parts = item.get("content").and_then(Value::as_array);
                for part in parts.map(Vec::as_slice).unwrap_or_default() {
                    let said = match part.get("type").and_then(Value::as_str) {
                        Some("output_text") => text(part, "text"),
                        Some("refusal") => {
                            refused = true;
                            text(part, "refusal")
                        }
                        _ => None,
                    };
                    if let Some(said) = said.filter(|s| !s.is_empty()) {
                        content.push(AssistantContent::Text(said));
                    }
                }
            }
            _ => {}
        }
    }
    let called = content
        .iter()
        .any(|c| matches!(c, AssistantContent::ToolCall(_)));
    Ok(Response {
        id: text(body, "id"),
        model: text(body, "model"),
        stop_reason: stop_reason(body, called, refused),
        content,
        usage: body.get("usage").and_then(usage),
    })
}

/// Turns the events of a Responses stream into [`Event`]s.
#[derive(Default)]
pub(crate) struct StreamDecoder {
    started: bool,
    /// The output index of each function call -> its place among this answer's calls.
    calls: HashMap<u64, usize>,
    refused: bool,
    finished: bool,
}

impl StreamDecoder {
    /// Reads one event; `Ok(true)` once the stream is complete.
    pub fn event(&mut self, sse: &SseEvent, out: &mut Vec<Event>) -> Result<bool, Error> {
        let (data, kind) = sse.typed()?;
        let kind = kind.as_str();
        let item = data.get("item").unwrap_or(&Value::Null);
        let item_kind = item.get("type").and_then(Value::as_str);
        let delta = || text(&data, "delta").unwrap_or_default();
        match kind {
            "error" => return Err(ProviderError::from_json(&data).into_stream_error()),
            "response.failed" => {
                let error = data.pointer("/response/error").unwrap_or(&data);
                return Err(ProviderError::from_json(error).into_stream_error());
            }
            "response.created" => {
                self.started = true;
                let response = &data["response"];
                out.push(Event::Start {
                    id: text(response, "id"),
                    model: text(response, "model"),
                });
            }
            "response.output_item.added" => match item_kind {
                Some("function_call") => {
                    let index = self.calls.len();
                    self.calls.insert(output_index(&data)?, index);
                    let call = tool_call(item)?;
                    out.push(Event::ToolCallStart {
                        index,
                        id: call.id,
                        name: call.name,
                    });
                }
                Some("reasoning") => out.push(Event::ReasoningStart),
                _ => {}
            },
            "response.function_call_arguments.delta" => out.push(Event::ToolCallDelta {
                index: self.call_at(&data)?,
                arguments: delta(),
            }),
            "response.output_item.done" => match item_kind {
                Some("function_call") => out.push(Event::ToolCallEnd {
                    index: self.call_at(&data)?,
                    call: tool_call(item)?,
                }),
                Some("reasoning") => {
                    if let Some(kept) = reasoning_item(item) {
                        out.push(Event::ReasoningItem(kept));
                    }
                }
                _ => {}
            },
            "response.output_text.delta" => out.push(Event::TextDelta(delta())),
            "response.refusal.delta" => {
                self.refused = true;
                out.push(Event::TextDelta(delta()));
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                out.push(Event::ReasoningDelta(delta()));
            }
            // The parts of a summary are paragraphs.
            "response.reasoning_summary_part.added"
                if data.get("summary_index").and_then(Value::as_u64) > Some(0) =>
            {
                out.push(Event::ReasoningDelta("\n\n".into()));
            }
            "response.completed" | "response.incomplete" => {
                if !self.started {
                    return Err(Error::MalformedStream("the stream had no answer".into()));
                }
                let response = &data["response"];
                self.finished = true;
                out.push(Event::Finish {
                    stop_reason: stop_reason(response, !self.calls.is_empty(), self.refused),
                    usage: response.get("usage").and_then(usage),
                });
                return Ok(true);
            }
            _ => {}
        }
        Ok(false)
    }

    /// The body ended: without the response's last event, the answer is cut short.
    pub fn end(&mut self, _out: &mut Vec<Event>) -> Result<(), Error> {
        if self.finished {
            return Ok(());
        }
        Err(Error::MalformedStream(
            "the stream ended before the model finished".into(),
        ))
    }

    fn call_at(&self, data: &Value) -> Result<usize, Error> {
        let at = output_index(data)?;
        self.calls.get(&at).copied().ok_or_else(|| {
            Error::MalformedStream(format!("arguments for output {at}, which is no tool call"))
        })
    }
}

fn output_index(data: &Value) -> Result<u64, Error> {
    data.get("output_index")
        .and_then(Value::as_u64)
        .ok_or_else(|| Error::MalformedStream("an event without its output_index".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(events: &[Value]) -> Result<Vec<Event>, Error> {
        let mut decoder = StreamDecoder::default();
        let mut out = Vec::new();
        for data in events {
            let sse = SseEvent {
                event: data["type"].as_str().unwrap_or_default().to_owned(),
                data: data.to_string(),
            };
            if decoder.event(&sse, &mut out)? {
                return Ok(out);
            }
        }
        decoder.end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn the_request_body_follows_the_protocol() {
        let reasoning = Reasoning {
            text: "Add them.".into(),
            item: Some(ReasoningItem {
                id: "rs_1".into(),
                encrypted_content: Some("gAAA".into()),
            }),
            ..Reasoning::default()
        };
        let mut request = Request::new(
            "gpt-5",
            8,
            vec![
                Message::user_text("add 2 and 3"),
                Message::Assistant(vec![
                    AssistantContent::Reasoning(reasoning),
                    // Anthropic's thinking cannot go back here.
                    AssistantContent::Reasoning(Reasoning {
                        text: "other".into(),
                        signature: Some("sig".into()),
                        ..Reasoning::default()
                    }),
                    AssistantContent::ToolCall(ToolCall {
                        id: "call_1".into(),
                        name: "get-sum".into(),
                        arguments: json!({"a": 2, "b": 3}),
                    }),
                ]),
                Message::User(vec![
                    UserContent::ToolResult(ToolResult {
                        call_id: "call_1".into(),
                        content: vec![
                            ToolResultContent::Text("5".into()),
                            ToolResultContent::Image(Image::Url {
                                url: "https://example.com/5.png".into(),
                            }),
                        ],
                        is_error: false,
                        not_made: false,
                    }),
                    UserContent::Text("thanks".into()),
                ]),
            ],
        );
        request.system = Some("be brief".into());
        request.stop_sequences = vec!["END".into()];
        request.effort = Some(Effort::Low);
        request.tools = vec![Tool {
            name: "get-sum".into(),
            description: None,
            parameters: json!({"type": "object"}),
        }];
        request.tool_choice = ToolChoice::Required;
        request.cache_key = Some("conversation-7".into());
        assert_eq!(
            request_body(&request, &Profile::of("gpt-5"), true),
            json!({
                "model": "gpt-5",
                "instructions": "be brief",
                "input": [
                    {"role": "user", "content": [{"type": "input_text", "text": "add 2 and 3"}]},
                    {"type": "reasoning", "id": "rs_1",
                        "summary": [{"type": "summary_text", "text": "Add them."}],
                        "encrypted_content": "gAAA"},
                    {"type": "function_call", "call_id": "call_1", "name": "get-sum",
                        "arguments": "{\"a\":2,\"b\":3}"},
                    {"type": "function_call_output", "call_id": "call_1", "output": [
                        {"type": "input_text", "text": "5"},
                        {"type": "input_image", "image_url": "https://example.com/5.png", "detail": "auto"},
                    ]},
                    {"role": "user", "content": [{"type": "input_text", "text": "thanks"}]},
                ],
                "max_output_tokens": 16,
                "reasoning": {"summary": "auto", "effort": "low"},
                "include": ["reasoning.encrypted_content"],
                "tools": [{"type": "function", "name": "get-sum",
                    "parameters": {"type": "object"}, "strict": false}],
                "tool_choice": "required",
                "prompt_cache_key": "conversation-7",
                "store": false,
                "stream": true,
            })
        );
        // A model that does not reason is asked for no reasoning.
        let plain = Request::new("gpt-4.1", 100, vec![Message::user_text("Hi")]);
        let body = request_body(&plain, &Profile::of("gpt-4.1"), false);
        assert!(body.get("reasoning").is_none() && body.get("include").is_none());
        assert!(body.get("stream").is_none());
    }

    #[test]
    fn a_stream_of_reasoning_text_and_a_tool_call() {
        let events = decode(&[
            json!({"type": "response.created", "response": {"id": "resp_1", "model": "gpt-5"}}),
            json!({"type": "response.output_item.added", "output_index": 0,
                "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
            json!({"type": "response.reasoning_summary_text.delta", "output_index": 0,
                "summary_index": 0, "delta": "Add"}),
            json!({"type": "response.reasoning_summary_part.added", "output_index": 0,
                "summary_index": 1}),
            json!({"type": "response.reasoning_summary_text.delta", "output_index": 0,
                "summary_index": 1, "delta": "them."}),
            json!({"type": "response.output_item.done", "output_index": 0,
                "item": {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA"}}),
            json!({"type": "response.output_text.delta", "output_index": 1, "delta": "Sure."}),
            json!({"type": "response.output_item.added", "output_index": 2,
                "item": {"type": "function_call", "call_id": "call_1", "name": "get-sum", "arguments": ""}}),
            json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "{\"a\":2,"}),
            json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "\"b\":3}"}),
            json!({"type": "response.output_item.done", "output_index": 2,
                "item": {"type": "function_call", "call_id": "call_1", "name": "get-sum",
                    "arguments": "{\"a\":2,\"b\":3}"}}),
            json!({"type": "response.completed", "response": {"status": "completed",
                "usage": {"input_tokens": 12, "output_tokens": 7,
                    "input_tokens_details": {"cached_tokens": 4}}}}),
        ])
        .unwrap();
        let mut collector = crate::Collector::default();
        for event in &events {
            collector.push(event);
        }
        let response = collector.finish().unwrap();
        assert_eq!(
            response.content,
            [
                AssistantContent::Reasoning(Reasoning {
                    text: "Add\n\nthem.".into(),
                    item: Some(ReasoningItem {
                        id: "rs_1".into(),
                        encrypted_content: Some("gAAA".into()),
                    }),
                    ..Reasoning::default()
                }),
                AssistantContent::Text("Sure.".into()),
                AssistantContent::ToolCall(ToolCall {
                    id: "call_1".into(),
                    name: "get-sum".into(),
                    arguments: json!({"a": 2, "b": 3}),
                }),
            ]
        );
        assert_eq!(response.stop_reason, StopReason::ToolUse);
        assert_eq!(response.usage.unwrap().cache_read_tokens, Some(4));
        assert!(events.iter().any(|e| matches!(e,
            Event::ToolCallDelta { index: 0, arguments } if arguments == "\"b\":3}")));
    }

    #[test]
    fn an_answer_cut_refused_or_failed_says_so() {
        let created = json!({"type": "response.created", "response": {"id": "r", "model": "m"}});
        let incomplete = json!({"type": "response.incomplete", "response": {"status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"}}});
        assert!(matches!(
            decode(&[created.clone(), incomplete]).unwrap().last(),
            Some(Event::Finish {
                stop_reason: StopReason::MaxTokens,
                ..
            })
        ));
        let refusal = json!({"type": "response.refusal.delta", "output_index": 0, "delta": "No."});
        let completed = json!({"type": "response.completed", "response": {"status": "completed"}});
        assert!(matches!(
            decode(&[created.clone(), refusal, completed])
                .unwrap()
                .last(),
            Some(Event::Finish {
                stop_reason: StopReason::Refused,
                ..
            })
        ));
        let error =
            json!({"type": "error", "code": "server_error", "message": "The server had an error"});
        assert!(matches!(
            decode(&[created.clone(), error]),
            Err(Error::Unavailable { message, .. }) if message == "The server had an error"
        ));
        let failed = json!({"type": "response.failed", "response": {"status": "failed",
            "error": {"code": "rate_limit_exceeded", "message": "Slow down"}}});
        assert!(decode(&[created.clone(), failed]).is_err());
        // Closed before the response's last event: cut short.
        assert!(matches!(decode(&[created]), Err(Error::MalformedStream(_))));
    }

    #[test]
    fn a_whole_response_is_read_item_by_item() {
        let body = json!({"id": "resp_1", "model": "gpt-5", "status": "completed", "output": [
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Sum."}],
                "encrypted_content": "gAAA"},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "It is 5.", "annotations": []}]},
            {"type": "function_call", "call_id": "call_1", "name": "get-sum", "arguments": "{}"}
        ], "usage": {"input_tokens": 3, "output_tokens": 2}});
        let response = parse_response(&body).unwrap();
        assert_eq!(response.content.len(), 3);
        assert_eq!(response.stop_reason, StopReason::ToolUse);
        assert_eq!(response.id.as_deref(), Some("resp_1"));
        assert!(matches!(&response.content[0],
            AssistantContent::Reasoning(r) if r.text == "Sum." && r.item.as_ref().unwrap().id == "rs_1"));
    }
}

//! OpenAI-compatible Chat Completions: `POST {base}/chat/completions` and
//! `GET {base}/models`, where the base usually ends in `/v1`.
//!
//! The same protocol is spoken, with small differences, by OpenAI, Ollama, llama.cpp's
//! server, vLLM, LM Studio, OpenRouter and Groq. What this reader accepts beyond OpenAI's
//! own answers: tool call deltas without an `index` (older Ollama), arguments sent as a
//! JSON object instead of text, `finish_reason: "stop"` after tool calls, a stream that
//! ends without `data: [DONE]` once the model finished, and message content given as an
//! array of parts. A reasoning model's thinking comes as `reasoning_content` (DeepSeek,
//! llama.cpp, vLLM) or `reasoning` (Ollama, OpenRouter); it goes back as
//! `reasoning_content` within the turn under way, which DeepSeek requires during a round of
//! tool calls. A local model's thinking written inline, as an opening `<think>` block of its
//! text, is taken as its reasoning too (see `think.rs`).

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::error::{Error, ProviderError};
use crate::model::*;
use crate::sse::SseEvent;
use crate::think::ThinkSplitter;

/// Differences between OpenAI-compatible servers that a request must follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiOptions {
    /// Which field carries [`Request::max_tokens`]: OpenAI's newer models take only
    /// `max_completion_tokens`; most other servers know only `max_tokens`.
    pub max_tokens_field: MaxTokensField,
    /// Ask for the token usage at the end of a stream (`stream_options.include_usage`);
    /// a server that refuses unknown fields may need it off.
    pub stream_usage: bool,
}

impl Default for OpenAiOptions {
    fn default() -> Self {
        Self {
            max_tokens_field: MaxTokensField::MaxTokens,
            stream_usage: true,
        }
    }
}

impl OpenAiOptions {
    /// What OpenAI's own API wants.
    pub fn openai() -> Self {
        Self {
            max_tokens_field: MaxTokensField::MaxCompletionTokens,
            stream_usage: true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxTokensField {
    MaxTokens,
    MaxCompletionTokens,
}

/// The JSON body of a Chat Completions request.
pub(crate) fn request_body(request: &Request, options: &OpenAiOptions, stream: bool) -> Value {
    let mut messages = Vec::new();
    if let Some(system) = &request.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    for message in &request.messages {
        match message {
            Message::User(content) => user_messages(content, &mut messages),
            Message::Assistant(content) => messages.push(assistant_message(content)),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("messages".into(), Value::Array(messages));
    let max_field = match options.max_tokens_field {
        MaxTokensField::MaxTokens => "max_tokens",
        MaxTokensField::MaxCompletionTokens => "max_completion_tokens",
    };
    body.insert(max_field.into(), json!(request.max_tokens));
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    if let Some(effort) = request.effort {
        body.insert("reasoning_effort".into(), json!(effort));
    }
    if !request.stop_sequences.is_empty() {
        body.insert("stop".into(), json!(request.stop_sequences));
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|tool| {
            let mut function = Map::new();
            function.insert("name".into(), json!(tool.name));
            if let Some(description) = &tool.description {
                function.insert("description".into(), json!(description));
            }
            function.insert("parameters".into(), tool.parameters.clone());
            json!({"type": "function", "function": function})
        });
        body.insert("tools".into(), Value::Array(tools.collect()));
        match request.tool_choice {
            ToolChoice::Auto => {}
            ToolChoice::Required => _ = body.insert("tool_choice".into(), json!("required")),
            ToolChoice::None => _ = body.insert("tool_choice".into(), json!("none")),
        }
    }
    if stream {
        body.insert("stream".into(), json!(true));
        if options.stream_usage {
            body.insert("stream_options".into(), json!({"include_usage": true}));
        }
    }
    Value::Object(body)
}

/// A user message: its tool results first, each a `tool` message (the protocol wants
/// them right after the assistant's calls), then the rest as one `user` message. A `tool`
/// message holds only text, so a result's images follow in that user message, each
/// introduced by a line saying it is the data of its call, not the person's words (the
/// Responses API, which OpenAI's own models are reached by, keeps them in the tool's
/// output instead).
fn user_messages(content: &[UserContent], out: &mut Vec<Value>) {
    let mut parts = Vec::new();
    let mut result_images = Vec::new();
    for item in content {
        match item {
            UserContent::ToolResult(result) => {
                let mut text = String::new();
                for piece in &result.content {
                    match piece {
                        ToolResultContent::Text(t) => {
                            if !text.is_empty() {
                                text.push('\n');
                            }
                            text.push_str(t);
                        }
                        ToolResultContent::Image(image) => {
                            result_images.push(json!({
                                "type": "text",
                                "text": format!("(the next image is data the tool call {} returned, not the person's)", result.call_id),
                            }));
                            result_images.push(image_part(image));
                        }
                    }
                }
                // Chat Completions has no error flag: the text says it.
                if result.is_error {
                    text = format!("Error: {text}");
                }
                out.push(json!({"role": "tool", "tool_call_id": result.call_id, "content": text}));
            }
            UserContent::Text(text) => parts.push(json!({"type": "text", "text": text})),
            UserContent::Image(image) => parts.push(image_part(image)),
        }
    }
    result_images.extend(parts);
    let parts = result_images;
    match parts.as_slice() {
        [] => {}
        // A lone text goes as a plain string, which every compatible server takes.
        [only] if only["type"] == "text" => {
            out.push(json!({"role": "user", "content": only["text"]}));
        }
        _ => out.push(json!({"role": "user", "content": parts})),
    }
}

fn image_part(image: &Image) -> Value {
    let url = match image {
        Image::Base64 { media_type, data } => format!("data:{media_type};base64,{data}"),
        Image::Url { url } => url.clone(),
    };
    json!({"type": "image_url", "image_url": {"url": url}})
}

fn assistant_message(content: &[AssistantContent]) -> Value {
    let mut text = String::new();
    let mut reasoning = String::new();
    let mut calls = Vec::new();
    for item in content {
        match item {
            AssistantContent::Text(t) => text.push_str(t),
            AssistantContent::Reasoning(r) => reasoning.push_str(&r.text),
            AssistantContent::ToolCall(call) => {
                let arguments = match &call.arguments {
                    Value::String(raw) => raw.clone(),
                    other => other.to_string(),
                };
                calls.push(json!({
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": arguments},
                }));
            }
        }
    }
    let mut message = Map::new();
    message.insert("role".into(), json!("assistant"));
    let content = if text.is_empty() && !calls.is_empty() {
        Value::Null
    } else {
        json!(text)
    };
    message.insert("content".into(), content);
    if !reasoning.is_empty() {
        message.insert("reasoning_content".into(), json!(reasoning));
    }
    if !calls.is_empty() {
        message.insert("tool_calls".into(), Value::Array(calls));
    }
    Value::Object(message)
}

fn stop_reason(finish: Option<&str>, called_tools: bool) -> StopReason {
    match finish {
        Some("length") => StopReason::MaxTokens,
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        Some("content_filter") => StopReason::Refused,
        // Some servers say `stop` after tool calls; the calls are what matters.
        Some("stop") | None if called_tools => StopReason::ToolUse,
        Some("stop") | None => StopReason::EndTurn,
        Some(other) => StopReason::Other(other.to_owned()),
    }
}

fn usage(value: &Value) -> Option<Usage> {
    let count = |v: &Value| v.as_u64();
    let input = count(value.get("prompt_tokens")?)?;
    let output = value
        .get("completion_tokens")
        .and_then(count)
        .unwrap_or_default();
    Some(Usage {
        input_tokens: input,
        output_tokens: output,
        cache_read_tokens: value
            .pointer("/prompt_tokens_details/cached_tokens")
            .and_then(count),
        cache_write_tokens: None,
    })
}

fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

fn arguments_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// A message's or delta's reasoning, by either name the servers give it.
fn reasoning_of(message: &Value) -> String {
    ["reasoning_content", "reasoning"]
        .iter()
        .map(|key| text_of(message.get(*key).unwrap_or(&Value::Null)))
        .collect()
}

/// Reads a whole (non-streamed) Chat Completions answer.
pub(crate) fn parse_response(body: &Value) -> Result<Response, Error> {
    if body.get("error").is_some_and(|e| !e.is_null()) {
        return Err(ProviderError::from_json(body).into_stream_error());
    }
    let choice = body
        .pointer("/choices/0")
        .ok_or_else(|| Error::MalformedResponse("an answer without choices".into()))?;
    let message = choice
        .get("message")
        .ok_or_else(|| Error::MalformedResponse("a choice without a message".into()))?;
    let mut content = Vec::new();
    let (inline, said) =
        ThinkSplitter::split(&text_of(message.get("content").unwrap_or(&Value::Null)));
    let thought = reasoning_of(message) + &inline.unwrap_or_default();
    if !thought.is_empty() {
        content.push(AssistantContent::Reasoning(Reasoning {
            text: thought,
            ..Reasoning::default()
        }));
    }
    let text = said + &text_of(message.get("refusal").unwrap_or(&Value::Null));
    if !text.is_empty() {
        content.push(AssistantContent::Text(text));
    }
    let calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (n, call) in calls.iter().enumerate() {
        let name = call
            .pointer("/function/name")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::MalformedResponse("a tool call without a name".into()))?;
        let id = call
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("call_{n}"), str::to_owned);
        let arguments = arguments_text(call.pointer("/function/arguments"));
        content.push(AssistantContent::ToolCall(ToolCall {
            id,
            name: name.to_owned(),
            arguments: parse_arguments(&arguments),
        }));
    }
    Ok(Response {
        id: body.get("id").and_then(Value::as_str).map(str::to_owned),
        model: body.get("model").and_then(Value::as_str).map(str::to_owned),
        stop_reason: stop_reason(
            choice.get("finish_reason").and_then(Value::as_str),
            !calls.is_empty(),
        ),
        content,
        usage: body.get("usage").and_then(usage),
    })
}

/// The models of a `GET {base}/models` answer.
pub(crate) fn parse_models(body: &Value) -> Result<Vec<ModelInfo>, Error> {
    let data = body
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::MalformedResponse("a model list without `data`".into()))?;
    Ok(data
        .iter()
        .filter_map(|m| m.get("id").and_then(Value::as_str))
        .map(|id| ModelInfo {
            id: id.to_owned(),
            display_name: None,
        })
        .collect())
}

/// A tool call as its pieces arrive.
struct PendingCall {
    id: String,
    name: String,
    arguments: String,
    /// `ToolCallStart` was sent (once the name is known).
    started: bool,
    ended: bool,
}

/// Turns the events of a Chat Completions stream into [`Event`]s.
#[derive(Default)]
pub(crate) struct StreamDecoder {
    started: bool,
    /// The answer's text, an opening `<think>` block of it taken as reasoning.
    think: ThinkSplitter,
    calls: Vec<PendingCall>,
    /// The provider's `index` of a call -> its place in `calls`.
    by_index: HashMap<i64, usize>,
    finish_reason: Option<String>,
    finished: bool,
    usage: Option<Usage>,
}

impl StreamDecoder {
    /// Reads one event; `Ok(true)` once the stream is complete.
    pub fn event(&mut self, sse: &SseEvent, out: &mut Vec<Event>) -> Result<bool, Error> {
        if sse.data.trim() == "[DONE]" {
            self.finish(out)?;
            return Ok(true);
        }
        let chunk: Value = serde_json::from_str(&sse.data)
            .map_err(|e| Error::MalformedStream(format!("a chunk that is not JSON ({e})")))?;
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            return Err(ProviderError::from_json(&chunk).into_stream_error());
        }
        if !self.started {
            self.started = true;
            out.push(Event::Start {
                id: chunk.get("id").and_then(Value::as_str).map(str::to_owned),
                model: chunk
                    .get("model")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            });
        }
        if let Some(usage) = chunk.get("usage").and_then(usage) {
            self.usage = Some(usage);
        }
        let choices = chunk.get("choices").and_then(Value::as_array);
        let choice = choices.and_then(|c| {
            c.iter()
                .find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
        });
        let Some(choice) = choice else {
            return Ok(false);
        };
        if let Some(delta) = choice.get("delta") {
            let thought = reasoning_of(delta);
            if !thought.is_empty() {
                out.push(Event::ReasoningDelta(thought));
            }
            let text = text_of(delta.get("content").unwrap_or(&Value::Null));
            if !text.is_empty() {
                self.think.push(&text, out);
            }
            let refusal = text_of(delta.get("refusal").unwrap_or(&Value::Null));
            if !refusal.is_empty() {
                out.push(Event::TextDelta(refusal));
            }
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for call in calls {
                    self.call_delta(call, out)?;
                }
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_owned());
            self.end_calls(out)?;
        }
        Ok(false)
    }

    /// The body ended without `[DONE]`: complete if the model had finished.
    pub fn end(&mut self, out: &mut Vec<Event>) -> Result<(), Error> {
        if self.finished {
            return Ok(());
        }
        if self.finish_reason.is_none() {
            return Err(Error::MalformedStream(
                "the stream ended before the model finished".into(),
            ));
        }
        self.finish(out)
    }

    fn call_delta(&mut self, call: &Value, out: &mut Vec<Event>) -> Result<(), Error> {
        let id = call
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let at = match call.get("index").and_then(Value::as_i64) {
            Some(index) => match self.by_index.get(&index) {
                Some(&at) => at,
                None => {
                    let at = self.new_call(id);
                    self.by_index.insert(index, at);
                    at
                }
            },
            // No index: a new id is a new call; otherwise it goes on the last one.
            None => match id {
                Some(id) => match self.calls.iter().position(|c| c.id == id) {
                    Some(at) => at,
                    None => self.new_call(Some(id)),
                },
                None if self.calls.is_empty() => self.new_call(None),
                None => self.calls.len() - 1,
            },
        };
        let pending = &mut self.calls[at];
        if pending.ended {
            return Err(Error::MalformedStream(format!(
                "more of tool call {at} after it ended"
            )));
        }
        if let (Some(id), false) = (id, pending.started) {
            id.clone_into(&mut pending.id);
        }
        if let Some(name) = call.pointer("/function/name").and_then(Value::as_str)
            && pending.name.is_empty()
        {
            name.clone_into(&mut pending.name);
        }
        let arguments = arguments_text(call.pointer("/function/arguments"));
        if !pending.started && !pending.name.is_empty() {
            pending.started = true;
            out.push(Event::ToolCallStart {
                index: at,
                id: pending.id.clone(),
                name: pending.name.clone(),
            });
            // Arguments that came before the name are given now.
            if !pending.arguments.is_empty() {
                out.push(Event::ToolCallDelta {
                    index: at,
                    arguments: pending.arguments.clone(),
                });
            }
        }
        if !arguments.is_empty() {
            pending.arguments.push_str(&arguments);
            if pending.started {
                out.push(Event::ToolCallDelta {
                    index: at,
                    arguments,
                });
            }
        }
        Ok(())
    }

    fn new_call(&mut self, id: Option<&str>) -> usize {
        let at = self.calls.len();
        self.calls.push(PendingCall {
            id: id.map_or_else(|| format!("call_{at}"), str::to_owned),
            name: String::new(),
            arguments: String::new(),
            started: false,
            ended: false,
        });
        at
    }

    fn end_calls(&mut self, out: &mut Vec<Event>) -> Result<(), Error> {
        for (at, pending) in self.calls.iter_mut().enumerate() {
            if pending.ended {
                continue;
            }
            if !pending.started {
                return Err(Error::MalformedStream(format!(
                    "tool call {at} has no name"
                )));
            }
            pending.ended = true;
            out.push(Event::ToolCallEnd {
                index: at,
                call: ToolCall {
                    id: pending.id.clone(),
                    name: pending.name.clone(),
                    arguments: parse_arguments(&pending.arguments),
                },
            });
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<Event>) -> Result<(), Error> {
        if self.finished {
            return Ok(());
        }
        if !self.started {
            return Err(Error::MalformedStream("the stream had no answer".into()));
        }
        self.think.finish(out);
        self.end_calls(out)?;
        self.finished = true;
        out.push(Event::Finish {
            stop_reason: stop_reason(self.finish_reason.as_deref(), !self.calls.is_empty()),
            usage: self.usage,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sse(data: &str) -> SseEvent {
        SseEvent {
            event: String::new(),
            data: data.into(),
        }
    }

    fn decode(chunks: &[&str]) -> Result<Vec<Event>, Error> {
        let mut decoder = StreamDecoder::default();
        let mut out = Vec::new();
        for chunk in chunks {
            if decoder.event(&sse(chunk), &mut out)? {
                return Ok(out);
            }
        }
        decoder.end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn the_request_body_follows_the_protocol() {
        let mut request = Request::new(
            "gpt-test",
            100,
            vec![
                Message::user_text("add 2 and 3"),
                Message::Assistant(vec![AssistantContent::ToolCall(ToolCall {
                    id: "call_1".into(),
                    name: "get-sum".into(),
                    arguments: json!({"a": 2, "b": 3}),
                })]),
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
        request.temperature = Some(0.5);
        request.stop_sequences = vec!["END".into()];
        request.tools = vec![Tool {
            name: "get-sum".into(),
            description: None,
            parameters: json!({"type": "object"}),
        }];
        request.tool_choice = ToolChoice::Required;
        let body = request_body(&request, &OpenAiOptions::openai(), true);
        assert_eq!(
            body,
            json!({
                "model": "gpt-test",
                "messages": [
                    {"role": "system", "content": "be brief"},
                    {"role": "user", "content": "add 2 and 3"},
                    {"role": "assistant", "content": null, "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "get-sum", "arguments": "{\"a\":2,\"b\":3}"}}
                    ]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "5"},
                    {"role": "user", "content": [
                        {"type": "text", "text": "(the next image is data the tool call call_1 returned, not the person's)"},
                        {"type": "image_url", "image_url": {"url": "https://example.com/5.png"}},
                        {"type": "text", "text": "thanks"},
                    ]},
                ],
                "max_completion_tokens": 100,
                "temperature": 0.5,
                "stop": ["END"],
                "tools": [{"type": "function", "function": {"name": "get-sum", "parameters": {"type": "object"}}}],
                "tool_choice": "required",
                "stream": true,
                "stream_options": {"include_usage": true},
            })
        );
    }

    #[test]
    fn tool_calls_without_index_and_with_object_arguments() {
        let events = decode(&[
            r#"{"id":"x","model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"one","arguments":{"n":1}}},{"id":"b","function":{"name":"two","arguments":""}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"{\"n\":2}"}}]},"finish_reason":"stop"}]}"#,
        ])
        .unwrap();
        let ends: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::ToolCallEnd { call, .. } => Some((call.id.as_str(), call.arguments.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(ends, vec![("a", json!({"n": 1})), ("b", json!({"n": 2}))]);
        assert!(matches!(
            events.last(),
            Some(Event::Finish {
                stop_reason: StopReason::ToolUse,
                usage: None
            })
        ));
    }

    #[test]
    fn a_stream_cut_short_or_broken_is_an_error() {
        let first = r#"{"id":"x","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#;
        assert!(matches!(decode(&[first]), Err(Error::MalformedStream(_))));
        assert!(matches!(
            decode(&[first, "{not json"]),
            Err(Error::MalformedStream(_))
        ));
        let error = r#"{"error":{"message":"The server had an error","type":"server_error"}}"#;
        assert!(matches!(
            decode(&[first, error]),
            Err(Error::Unavailable { message, .. }) if message == "The server had an error"
        ));
        // Finished, then closed without `[DONE]`: complete.
        let done = r#"{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}"#;
        assert!(matches!(
            decode(&[first, done]).unwrap().last(),
            Some(Event::Finish {
                stop_reason: StopReason::MaxTokens,
                ..
            })
        ));
    }
}

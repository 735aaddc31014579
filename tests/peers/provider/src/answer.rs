//! An answer as the protocol modules describe it, before HTTP: a JSON body with its
//! status and headers, or a stream of server-sent events.

use serde_json::Value;

use crate::script::{Failure, Turn, split};

pub enum Answer {
    Json {
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: Value,
    },
    Events {
        /// Each frame complete with its blank line.
        frames: Vec<String>,
        /// Send the bytes in pieces of this size instead of a frame at a time.
        chunk_bytes: Option<usize>,
        /// After the frames, keep the body open and send nothing.
        stall: bool,
    },
}

impl Answer {
    pub fn json(status: u16, body: Value) -> Self {
        Self::Json {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// A turn's stream of these frames, sent as the turn says.
    pub fn events(turn: &Turn, frames: Vec<String>) -> Self {
        Self::Events {
            frames,
            chunk_bytes: turn.chunk_bytes,
            stall: turn.stall,
        }
    }
}

/// Whether the turn breaks its stream off after its content, `frames` then ending as it
/// does: with the frame of a failure (written by `failure`), with `garbage` (a frame that
/// is not JSON), or there (cut short, or stalled before the last events).
pub fn broken_off(
    turn: &Turn,
    frames: &mut Vec<String>,
    failure: impl FnOnce(&Failure) -> String,
    garbage: String,
) -> bool {
    if let Some(failed) = &turn.fail_mid_stream {
        frames.push(failure(failed));
        return true;
    }
    if turn.garbage_mid_stream {
        frames.push(garbage);
        return true;
    }
    turn.cut_short || turn.stall
}

/// The `retry-after` header of a failure, when it has one.
pub fn retry_headers(failure: &Failure) -> Vec<(&'static str, String)> {
    failure
        .retry_after
        .iter()
        .map(|after| ("retry-after", after.clone()))
        .collect()
}

/// A turn's content, resolved: texts with `{tool_result}` filled in, split into pieces.
pub enum Part<'a> {
    /// The pieces, and the citations (Anthropic's) of the whole.
    Text(Vec<String>, &'a [Value]),
    Thinking {
        pieces: Vec<String>,
        signature: &'a str,
    },
    ToolCall {
        id: Option<&'a str>,
        name: &'a str,
        arguments: &'a Value,
        pieces: Vec<String>,
    },
}

pub fn parts<'a>(turn: &'a Turn, tool_result: &str) -> Vec<Part<'a>> {
    turn.content
        .iter()
        .filter_map(|block| {
            let pieces = block.pieces.unwrap_or(1);
            if let Some(text) = &block.text {
                let text = text.replace("{tool_result}", tool_result);
                let citations = block.citations.as_deref().unwrap_or_default();
                return Some(Part::Text(split(&text, pieces), citations));
            }
            if let Some(thinking) = &block.thinking {
                return Some(Part::Thinking {
                    pieces: split(thinking, pieces),
                    signature: block.signature.as_deref().unwrap_or_default(),
                });
            }
            let call = block.tool_call.as_ref()?;
            Some(Part::ToolCall {
                id: call.id.as_deref(),
                name: &call.name,
                arguments: &call.arguments,
                pieces: split(&call.arguments.to_string(), pieces),
            })
        })
        .collect()
}

/// The text of a tool result's content: a string, or the texts of its parts.
pub fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// An SSE frame with only data, as OpenAI's Chat Completions sends them.
pub fn data_frame(data: &str) -> String {
    format!("data: {data}\n\n")
}

/// An SSE frame with an event name, as Anthropic's Messages and OpenAI's Responses send
/// them.
pub fn named_frame(event: &str, data: &str) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

//! One provider-neutral model of a conversation turn: what is asked ([`Request`]), what
//! comes back whole ([`Response`]) or piece by piece ([`Event`]). Each protocol module
//! translates these to and from its own wire format.
//!
//! The types serialize (tagged, snake_case) so that a host can keep conversations as they
//! are; that form is this crate's own, not any provider's.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One call to a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The provider's model id, as listed by [`crate::Client::list_models`] or typed.
    pub model: String,
    pub system: Option<String>,
    pub messages: Vec<Message>,
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub tool_choice: ToolChoice,
    /// The most tokens the answer may have (Anthropic requires it; it is sent to both).
    pub max_tokens: u32,
    pub temperature: Option<f64>,
    #[serde(default)]
    pub stop_sequences: Vec<String>,
    /// How hard a reasoning model thinks before it answers; `None`: as the model does by
    /// default (Anthropic's: not at all).
    #[serde(default)]
    pub effort: Option<Effort>,
    /// The conversation the request goes on with, for a provider that caches the prompts
    /// it saw to route it where the last one is cached (the Responses API's
    /// `prompt_cache_key`).
    #[serde(default)]
    pub cache_key: Option<String>,
}

/// How hard a reasoning model thinks: OpenAI's `reasoning_effort`, or a budget of
/// Anthropic's extended thinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Effort {
    Low,
    Medium,
    High,
}

impl Request {
    /// A request with no system prompt, tools, temperature or stop sequences.
    pub fn new(model: impl Into<String>, max_tokens: u32, messages: Vec<Message>) -> Self {
        Self {
            model: model.into(),
            system: None,
            messages,
            tools: Vec::new(),
            tool_choice: ToolChoice::Auto,
            max_tokens,
            temperature: None,
            stop_sequences: Vec::new(),
            effort: None,
            cache_key: None,
        }
    }
}

/// One message of the conversation. Tool results travel in a user message, as in
/// Anthropic's protocol; for OpenAI they become `tool` messages (see `openai.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", content = "content", rename_all = "snake_case")]
pub enum Message {
    User(Vec<UserContent>),
    Assistant(Vec<AssistantContent>),
}

impl Message {
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::User(vec![UserContent::Text(text.into())])
    }

    pub fn assistant_text(text: impl Into<String>) -> Self {
        Self::Assistant(vec![AssistantContent::Text(text.into())])
    }

    /// Whether the person wrote it: a user message that is not the results of the model's
    /// tool calls (which travel as the user's). Each such message begins a turn.
    pub fn is_persons(&self) -> bool {
        match self {
            Self::User(parts) => !parts
                .iter()
                .any(|part| matches!(part, UserContent::ToolResult(_))),
            Self::Assistant(_) => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum UserContent {
    Text(String),
    Image(Image),
    ToolResult(ToolResult),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum AssistantContent {
    Text(String),
    ToolCall(ToolCall),
    Reasoning(Reasoning),
}

/// What a reasoning model thought before it answered, kept as it came: a provider that
/// checks it when it comes back (Anthropic's signed thinking; DeepSeek's reasoning during a
/// round of tool calls) refuses it changed or missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reasoning {
    /// The thinking, as text a person may read (empty for redacted thinking).
    pub text: String,
    /// Anthropic's signature of a thinking block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Anthropic's redacted thinking: encrypted, returned as it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<String>,
    /// The Responses API's reasoning item, returned as it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<ReasoningItem>,
}

/// A reasoning item of OpenAI's Responses API: its id, and the reasoning whole, encrypted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasoningItem {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_content: Option<String>,
}

/// An image given to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Image {
    /// The image's bytes in standard base64, and their MIME type (`image/png`, ...).
    Base64 { media_type: String, data: String },
    /// An address the provider fetches itself (not every provider or model does).
    Url { url: String },
}

/// A tool the model may call: a name, what it does, and a JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub description: Option<String>,
    /// A JSON Schema of type `object`.
    pub parameters: Value,
}

/// Whether the model must, may or must not call a tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    /// The model decides (the providers' default: nothing is sent).
    #[default]
    Auto,
    /// The model must call one of the tools.
    Required,
    /// The model must not call any tool.
    None,
}

/// A tool call the model made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call, which its result must name.
    pub id: String,
    pub name: String,
    /// The arguments, parsed. A model that wrote text that is not JSON (cut off by the
    /// token limit, say) gives that text as a JSON string: a host checking the arguments
    /// against the tool's object schema refuses it, and can tell the model why.
    pub arguments: Value,
}

/// What a tool call gave, sent back to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The [`ToolCall::id`] this answers.
    pub call_id: String,
    pub content: Vec<ToolResultContent>,
    /// The call failed; `content` says how.
    #[serde(default)]
    pub is_error: bool,
    /// The call was never made: whoever runs the tools answered in its stead (refused, or
    /// stopped before it ran), so that its words are not taken for the tool's. Kept with
    /// a conversation; providers are not sent it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_made: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum ToolResultContent {
    Text(String),
    Image(Image),
}

/// Why the model stopped, in one vocabulary for both protocols.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", content = "detail", rename_all = "snake_case")]
pub enum StopReason {
    /// It finished its answer (OpenAI `stop`, Anthropic `end_turn`).
    EndTurn,
    /// It reached `max_tokens` (OpenAI `length`).
    MaxTokens,
    /// It wrote one of the stop sequences: which one, when the provider says (OpenAI
    /// reports this as `stop`, so it arrives as [`StopReason::EndTurn`] there).
    StopSequence(Option<String>),
    /// It called tools and waits for their results.
    ToolUse,
    /// The provider's safety system stopped it (OpenAI `content_filter`, Anthropic `refusal`).
    Refused,
    /// The conversation filled the model's context window (Anthropic
    /// `model_context_window_exceeded`).
    ContextWindowExceeded,
    /// A reason this crate does not know, as the provider wrote it (e.g. `pause_turn`).
    Other(String),
}

/// Tokens counted by the provider for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens read, cached ones included for OpenAI; for Anthropic, the uncached ones.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Input tokens read from the provider's prompt cache, when it says.
    pub cache_read_tokens: Option<u64>,
    /// Input tokens written to the prompt cache (Anthropic), when it says.
    pub cache_write_tokens: Option<u64>,
}

/// A model's whole answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// The provider's id of this answer.
    pub id: Option<String>,
    /// The model that answered, as the provider names it.
    pub model: Option<String>,
    pub content: Vec<AssistantContent>,
    pub stop_reason: StopReason,
    /// `None` when the provider did not count (some OpenAI-compatible servers).
    pub usage: Option<Usage>,
}

impl Response {
    /// The answer's text, all parts joined.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|c| match c {
                AssistantContent::Text(t) => Some(t.as_str()),
                AssistantContent::ToolCall(_) | AssistantContent::Reasoning(_) => None,
            })
            .collect()
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.content.iter().filter_map(|c| match c {
            AssistantContent::ToolCall(call) => Some(call),
            AssistantContent::Text(_) | AssistantContent::Reasoning(_) => None,
        })
    }

    /// The answer as the assistant message to put in the conversation.
    pub fn into_message(self) -> Message {
        Message::Assistant(self.content)
    }
}

/// One piece of a streamed answer, in the order the provider sent them.
///
/// A stream is `Start`, then text deltas and tool calls in any order (each tool call is
/// `ToolCallStart`, `ToolCallDelta`s, `ToolCallEnd`), then one `Finish`.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The answer began: the provider's id for it and the model that answers.
    Start {
        id: Option<String>,
        model: Option<String>,
    },
    TextDelta(String),
    /// A block of the model's reasoning began (Anthropic's thinking block).
    ReasoningStart,
    /// The next piece of the model's reasoning.
    ReasoningDelta(String),
    /// The signature of the reasoning block under way (Anthropic).
    ReasoningSignature(String),
    /// A block of redacted reasoning, whole (Anthropic).
    ReasoningRedacted(String),
    /// The reasoning block under way, as it is to go back (the Responses API's item).
    ReasoningItem(ReasoningItem),
    /// A tool call began. `index` counts the tool calls of this answer from 0.
    ToolCallStart {
        index: usize,
        id: String,
        name: String,
    },
    /// The next piece of a tool call's arguments, as the model writes them (JSON text,
    /// partial).
    ToolCallDelta {
        index: usize,
        arguments: String,
    },
    /// A tool call is complete, with its arguments assembled and parsed.
    ToolCallEnd {
        index: usize,
        call: ToolCall,
    },
    /// The answer is complete.
    Finish {
        stop_reason: StopReason,
        usage: Option<Usage>,
    },
}

/// A model a provider offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    /// A name for people, when the provider gives one (Anthropic does).
    pub display_name: Option<String>,
}

/// A tool call's arguments as assembled: empty means none (`{}`); text that is not JSON
/// is kept as a string (see [`ToolCall::arguments`]).
pub(crate) fn parse_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(serde_json::Map::new());
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_are_parsed_or_kept_as_text() {
        assert_eq!(parse_arguments(""), json!({}));
        assert_eq!(parse_arguments(" \n"), json!({}));
        assert_eq!(parse_arguments(r#"{"a":2}"#), json!({"a": 2}));
        assert_eq!(parse_arguments(r#"{"a":2"#), json!(r#"{"a":2"#));
    }

    #[test]
    fn a_conversation_round_trips_through_serde() {
        let message = Message::User(vec![
            UserContent::ToolResult(ToolResult {
                call_id: "c1".into(),
                content: vec![ToolResultContent::Text("5".into())],
                is_error: false,
                not_made: false,
            }),
            UserContent::Image(Image::Base64 {
                media_type: "image/png".into(),
                data: "iVBO".into(),
            }),
        ]);
        let text = serde_json::to_string(&message).unwrap();
        assert_eq!(serde_json::from_str::<Message>(&text).unwrap(), message);
    }
}

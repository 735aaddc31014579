//! What a test tells the stand-in to answer, read from JSON at start:
//!
//! ```json
//! {
//!   "api_key": "sk-test",
//!   "models": [{"id": "gpt-test"}, {"id": "claude-test", "display_name": "Claude Test"}],
//!   "models_page_size": 2,
//!   "turns": [
//!     {"content": [{"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3}]},
//!     {"content": [{"text": "The sum is {tool_result}.", "pieces": 4}], "usage": {"input": 30, "output": 6}},
//!     {"error": {"kind": "rate_limited", "retry_after": "7"}}
//!   ]
//! }
//! ```
//!
//! - `api_key`: when set, every request must carry it (`Authorization: Bearer` for
//!   OpenAI's protocols, `x-api-key` for Anthropic), or gets the protocol's 401.
//! - `models`: listed by `GET /v1/models`; Anthropic's list is paged by
//!   `models_page_size` (20 by default, as the real API) and the request's `limit`;
//!   `models_error` answers the list with that error instead (a key that was refused
//!   still gets its 401 first).
//! - `turns`: each `POST /v1/chat/completions`, `POST /v1/responses` or
//!   `POST /v1/messages` takes the next one, whatever the protocol. A turn is content
//!   blocks, each text or a tool call, streamed in `pieces` parts (1 by default); a text
//!   may have Anthropic `citations`, and a block may be `thinking` with its `signature`
//!   instead (in the Responses API a `reasoning` item, the signature its encrypted
//!   content); in a text, `{tool_result}` is replaced by the text of the last tool result
//!   the request carries. `stop` is a stop reason in Anthropic's words (mapped for OpenAI:
//!   `max_tokens` leaves a response `incomplete`, `refusal` makes its text a refusal;
//!   `tool_use` when a tool is called, `end_turn` otherwise, by default), `usage` the
//!   tokens reported (`input`, `output`, and OpenAI's details: `cached`, of the input,
//!   and `reasoning`, of the output). Instead, `error` answers with an HTTP error;
//!   `fail_mid_stream` streams the content and then an error event; `garbage_mid_stream`
//!   streams the content then a chunk that is not JSON; `cut_short` ends the body before
//!   the stream's last events (`response.completed` in the Responses API); `stall`
//!   streams the content and then sends nothing more, the connection left open (a
//!   provider gone silent). `chunk_bytes` sends the stream in pieces of that many bytes,
//!   cutting through events and lines.
//! - `dialect`: `openai` (the default), `ollama`, `llama.cpp` or `vllm`: which server's
//!   ways a Chat Completions stream follows (see `dialect.rs`); the Responses API's and
//!   Anthropic's answers are their own.
//! - `text_only`: a request with an image is refused, as by a model that reads none.
//! - `reasoning_back`: the OpenAI protocol refuses, as DeepSeek does, a round of tool
//!   calls sent back without its `reasoning_content`; the Responses API refuses, as OpenAI
//!   does with `store: false`, a function call sent back without the reasoning item that
//!   preceded it or with that item's `encrypted_content` changed; Anthropic's protocol
//!   always checks its thinking blocks as the API does (see `reasoning.rs`).
//! - A failure's `message` replaces the protocol's usual one; in an `error` or a
//!   `models_error`, `{key}` in it is replaced by the API key the request carried, whole,
//!   as a proxy or a careless server may echo it.

use serde::Deserialize;
use serde_json::Value;

use crate::dialect::Dialect;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    pub api_key: Option<String>,
    #[serde(default)]
    pub models: Vec<ModelEntry>,
    #[serde(default = "default_page_size")]
    pub models_page_size: usize,
    /// When set, `GET /v1/models` answers with this error (after checking the key).
    pub models_error: Option<Failure>,
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// Which OpenAI-compatible server writes the streamed answers (see `dialect.rs`).
    #[serde(default)]
    pub dialect: Dialect,
    /// Refuse, as DeepSeek does in its thinking mode, a round of tool calls whose
    /// assistant message does not carry its `reasoning_content`, and, as OpenAI's
    /// Responses API does when it keeps nothing, a function call sent back without its
    /// reasoning item (see `reasoning.rs`).
    #[serde(default)]
    pub reasoning_back: bool,
    /// The model reads no images: a request that carries one is refused, as a text-only
    /// model behind an OpenAI-compatible server refuses it.
    #[serde(default)]
    pub text_only: bool,
}

fn default_page_size() -> usize {
    20
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    pub id: String,
    pub display_name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    #[serde(default)]
    pub content: Vec<Block>,
    pub stop: Option<String>,
    pub stop_sequence: Option<String>,
    #[serde(default)]
    pub usage: Usage,
    pub error: Option<Failure>,
    pub fail_mid_stream: Option<Failure>,
    #[serde(default)]
    pub garbage_mid_stream: bool,
    #[serde(default)]
    pub cut_short: bool,
    #[serde(default)]
    pub stall: bool,
    pub chunk_bytes: Option<usize>,
}

impl Turn {
    /// The stop reason in Anthropic's words.
    pub fn stop(&self) -> &str {
        match &self.stop {
            Some(stop) => stop,
            None if self.content.iter().any(|b| b.tool_call.is_some()) => "tool_use",
            None => "end_turn",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    pub text: Option<String>,
    /// With a text, in Anthropic's protocol: its citations, whole, each streamed as a
    /// `citations_delta` after the text.
    pub citations: Option<Vec<Value>>,
    pub tool_call: Option<ToolCall>,
    /// Anthropic's extended thinking, with its `signature` (streamed as a
    /// `signature_delta`); in Chat Completions, which has no such block, left out, or
    /// streamed as the reasoning deltas of the `dialect`'s server; in the Responses API a
    /// `reasoning` item, its summary and encrypted content (the signature) as asked for.
    pub thinking: Option<String>,
    pub signature: Option<String>,
    pub pieces: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Value,
    pub id: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    /// Of the input, the tokens read from the prompt cache (OpenAI's `cached_tokens`).
    #[serde(default)]
    pub cached: u64,
    /// Of the output, the tokens spent reasoning (OpenAI's `reasoning_tokens`).
    #[serde(default)]
    pub reasoning: u64,
}

impl Default for Usage {
    fn default() -> Self {
        Self {
            input: 10,
            output: 5,
            cached: 0,
            reasoning: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    Unauthorized,
    RateLimited,
    ServerError,
    Overloaded,
    ContextTooLong,
    NotFound,
    /// The account has no quota or credit left: OpenAI's 429 `insufficient_quota`,
    /// Anthropic's 400 about the credit balance.
    QuotaExceeded,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    pub kind: FailureKind,
    /// The `retry-after` header, as written.
    pub retry_after: Option<String>,
    /// Replaces the protocol's usual message.
    pub message: Option<String>,
}

impl Failure {
    /// The failure with `{key}` in its message replaced by `key`.
    pub fn echoing(&self, key: Option<&str>) -> Self {
        let message = self
            .message
            .as_ref()
            .map(|m| m.replace("{key}", key.unwrap_or_default()));
        Self {
            message,
            ..self.clone()
        }
    }
}

/// Splits `text` into `pieces` parts of about the same number of characters (fewer when
/// the text is shorter); an empty text is one empty part.
pub fn split(text: &str, pieces: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let pieces = pieces.clamp(1, chars.len().max(1));
    let size = chars.len().div_ceil(pieces).max(1);
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_every_character() {
        assert_eq!(
            split(r#"{"a":2,"b":3}"#, 3),
            [r#"{"a":"#, r#"2,"b""#, ":3}"]
        );
        assert_eq!(split("ab", 5), ["a", "b"]);
        assert_eq!(split("", 3), [""]);
        assert_eq!(split("héllo", 1), ["héllo"]);
    }
}

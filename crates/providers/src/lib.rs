//! Switchboard's model providers: clients for the two wire protocols that reach nearly
//! every model, **OpenAI-compatible Chat Completions** (OpenAI, Ollama, llama.cpp's
//! server, vLLM, LM Studio, OpenRouter, Groq) and **Anthropic Messages**, and for OpenAI's
//! own **Responses API**, behind one provider-neutral model of a request, a response and a
//! stream of events.
//!
//! This crate knows nothing of MCP or of the GUI: the host turns MCP tools into [`Tool`]s
//! and tool calls into MCP calls.
//!
//! # Why a thin client of our own
//!
//! Weighed against `async-openai` 0.43 and `genai` 0.7 (read at those versions):
//!
//! - `async-openai` speaks only OpenAI, so Anthropic would need a second crate with its
//!   own types and errors. Its error answer must be `{"error": {"message", "code":
//!   string}}`: vLLM's top-level error, Ollama's `{"error": "..."}` and llama.cpp's
//!   numeric `code` end up as deserialization errors without the provider's message. The
//!   `retry-after` of a 429 is not in the error it returns (only its own retry layer reads
//!   it), and a body it cannot parse is logged whole at error level.
//! - `genai` speaks both, but picks the protocol from the model's name unless a resolver
//!   says otherwise, returns a failed call as a status with the raw body (no provider
//!   message, nothing that says "context too long"), includes the request payload in the
//!   text of one of its errors, logs stream data at warning level, and needs tokio's
//!   `test-util` and a second TLS stack (rustls) beside the workspace's native-tls.
//! - Both would be a large dependency for two endpoints each.
//!
//! What a host needs is small and exact: both request formats byte for byte, streamed
//! tool-call arguments assembled with their deltas also given (for a live view),
//! servers that stray from OpenAI read leniently (see `openai.rs`), errors that carry the
//! provider's own message and are typed where a caller branches (bad key, rate limit with
//! its wait, overloaded, context too long), and a key that can never be printed
//! ([`ApiKey`]). That is under two thousand lines on the workspace's `reqwest`, most of
//! them the two protocols' formats, which a library would not spare us from checking.
//!
//! The event stream is decoded by `sse.rs`, not `eventsource-stream`: that crate slices a
//! leading byte order mark as one byte and panics on it, rescans its buffer on every
//! chunk, and has no bound on an event's size (the MCP engine wraps it in a regrouping
//! reader for those reasons); the standard's parsing rules fit in a hundred lines.
//!
//! # How the host uses it
//!
//! ```no_run
//! # async fn demo() -> Result<(), switchboard_providers::Error> {
//! use switchboard_providers::*;
//!
//! // The key comes from the keyring, the rest from the provider's settings.
//! let key = ApiKey::new("sk-from-the-keyring");
//! let client = Client::new(ProviderConfig::anthropic("https://api.anthropic.com", Some(key)))?;
//! let models = client.list_models().await?; // for the Models page
//!
//! let mut request = Request::new(&models[0].id, 1024, vec![Message::user_text("Add 2 and 3")]);
//! request.tools.push(Tool {
//!     name: "get-sum".into(),
//!     description: Some("Adds two numbers".into()),
//!     parameters: serde_json::json!({"type": "object"}),
//! });
//! let mut stream = client.stream(&request).await?;
//! let mut answer = Collector::default();
//! while let Some(event) = stream.next().await {
//!     let event = event?; // Error::RateLimited { retry_after, .. } etc.
//!     // Show text deltas and tool calls as they come; Stop = drop `stream`.
//!     answer.push(&event);
//! }
//! let response = answer.finish().expect("a finished stream");
//! if response.stop_reason == StopReason::ToolUse {
//!     // Each call goes through the gate; its result goes back as a
//!     // `UserContent::ToolResult` in the next user message, after `response.into_message()`.
//! }
//! # Ok(()) }
//! ```
//!
//! The loop of turns (call tools, send results, ask again), retries on
//! [`Error::is_transient`] after [`Error::retry_after`], and the choice of model belong to
//! the host.

mod anthropic;
mod client;
mod collect;
mod error;
#[cfg(test)]
mod layers;
mod model;
mod openai;
mod profile;
mod responses;
mod secret;
mod sendable;
mod sse;
mod think;

pub use anthropic::API_VERSION as ANTHROPIC_API_VERSION;
pub use client::{Client, EventStream, Learned, Protocol, ProviderConfig};
pub use collect::Collector;
pub use error::{CONTEXT_TOO_LONG_PHRASES, Error, Trouble};
pub use model::*;
pub use openai::{MaxTokensField, OpenAiOptions};
pub use profile::Profile;
pub use secret::ApiKey;

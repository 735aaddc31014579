//! How OpenAI-compatible servers other than OpenAI write a Chat Completions stream, where
//! they differ from it (from their streams as recorded by their users and their sources):
//! the host's client claims to read Ollama, llama.cpp's server and vLLM, and a script's
//! `dialect` makes the stand-in answer as each does.

use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Dialect {
    /// OpenAI's own API.
    #[default]
    #[serde(rename = "openai")]
    OpenAi,
    /// Ollama's older releases: each chunk repeats the role, a tool call comes whole in
    /// one chunk without an `index`, `finish_reason` is `stop` after tool calls too, a
    /// reasoning model's thinking comes as `reasoning`, and a stream brings no usage.
    #[serde(rename = "ollama")]
    Ollama,
    /// llama.cpp's `llama-server`: `content: null` in the first chunk, thinking as
    /// `reasoning_content`, and the last chunk brings the finish, the `usage` (asked for
    /// or not) and the server's `timings` together.
    #[serde(rename = "llama.cpp")]
    LlamaCpp,
    /// vLLM: `stop_reason` beside `finish_reason`, no `system_fingerprint`, tool-call ids
    /// `chatcmpl-tool-…`, a tool call's name first with no `arguments`, thinking as
    /// `reasoning_content`.
    #[serde(rename = "vllm")]
    Vllm,
}

impl Dialect {
    /// The server's `system_fingerprint`, if it sends one.
    pub fn fingerprint(self) -> Option<&'static str> {
        match self {
            Self::OpenAi => Some("fp_standin"),
            Self::Ollama => Some("fp_ollama"),
            Self::LlamaCpp => Some("b6097-9515c613"),
            Self::Vllm => None,
        }
    }

    /// What a choice carries beside `delta` and `finish_reason`.
    pub fn choice_extras(self, choice: &mut Value) {
        match self {
            Self::OpenAi => choice["logprobs"] = Value::Null,
            Self::Vllm => {
                choice["logprobs"] = Value::Null;
                choice["stop_reason"] = Value::Null;
            }
            Self::Ollama | Self::LlamaCpp => {}
        }
    }

    /// The delta of the first chunk, before any content (none: the content's own).
    pub fn opening(self) -> Option<Value> {
        match self {
            Self::OpenAi => Some(json!({"role": "assistant", "content": "", "refusal": null})),
            Self::LlamaCpp => Some(json!({"role": "assistant", "content": null})),
            Self::Vllm => Some(json!({"role": "assistant", "content": ""})),
            Self::Ollama => None,
        }
    }

    /// A piece of the answer's text.
    pub fn text(self, piece: &str) -> Value {
        match self {
            Self::Ollama => json!({"role": "assistant", "content": piece}),
            _ => json!({"content": piece}),
        }
    }

    /// A piece of a reasoning model's thinking (OpenAI sends none).
    pub fn thinking(self, piece: &str) -> Option<Value> {
        match self {
            Self::OpenAi => None,
            Self::Ollama => Some(json!({"role": "assistant", "content": "", "reasoning": piece})),
            Self::LlamaCpp | Self::Vllm => Some(json!({"reasoning_content": piece})),
        }
    }

    /// The deltas of one tool call: its start, then its arguments piece by piece.
    pub fn tool_call(
        self,
        index: usize,
        id: &str,
        name: &str,
        arguments: &Value,
        pieces: &[String],
    ) -> Vec<Value> {
        let start = match self {
            Self::Ollama => {
                return vec![json!({"role": "assistant", "content": "", "tool_calls": [{
                    "id": id,
                    "type": "function",
                    "function": {"name": name, "arguments": arguments.to_string()},
                }]})];
            }
            Self::Vllm => json!({"tool_calls": [{
                "index": index,
                "id": id,
                "type": "function",
                "function": {"name": name},
            }]}),
            Self::OpenAi | Self::LlamaCpp => json!({"tool_calls": [{
                "index": index,
                "id": id,
                "type": "function",
                "function": {"name": name, "arguments": ""},
            }]}),
        };
        let arguments = pieces
            .iter()
            .map(|p| json!({"tool_calls": [{"index": index, "function": {"arguments": p}}]}));
        std::iter::once(start).chain(arguments).collect()
    }

    /// A tool call's id, when the script names none.
    pub fn call_id(self, turn_number: usize, n: usize) -> String {
        match self {
            Self::Vllm => format!("chatcmpl-tool-{turn_number:08x}{n:08x}"),
            Self::Ollama => format!("call_{turn_number:04}{n:04}"),
            Self::OpenAi | Self::LlamaCpp => format!("call_standin_{turn_number}_{n}"),
        }
    }

    /// The `finish_reason` for `reason` (OpenAI's word for the turn's stop).
    pub fn finish_reason(self, reason: &str) -> &str {
        match (self, reason) {
            (Self::Ollama, "tool_calls") => "stop",
            _ => reason,
        }
    }

    /// The delta of the chunk that finishes.
    pub fn closing(self) -> Value {
        match self {
            Self::Ollama => json!({"role": "assistant", "content": ""}),
            _ => json!({}),
        }
    }

    /// Whether the usage comes in a chunk of its own after the finish, when the request
    /// asked for it (`stream_options.include_usage`); llama.cpp puts it in the finishing
    /// chunk instead, Ollama's older releases nowhere.
    pub fn usage_chunk(self) -> bool {
        matches!(self, Self::OpenAi | Self::Vllm)
    }

    /// What the finishing chunk carries beside its choice.
    pub fn closing_extras(self, chunk: &mut Value, usage: Value) {
        if self == Self::LlamaCpp {
            let predicted = usage["completion_tokens"].clone();
            chunk["usage"] = json!({
                "completion_tokens": predicted,
                "prompt_tokens": usage["prompt_tokens"],
                "total_tokens": usage["total_tokens"],
            });
            chunk["timings"] = json!({
                "prompt_n": usage["prompt_tokens"], "prompt_ms": 20.5,
                "predicted_n": predicted, "predicted_ms": 93.6,
            });
        }
    }
}

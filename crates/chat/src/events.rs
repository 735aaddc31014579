//! What a conversation's run tells a face as it goes: the answer as it is written, each
//! tool call as it waits, runs, returns or is refused, and how the run ended.

use serde::Deserialize;
use serde::Serialize;
use serde_json::{Map, Value};
use switchboard_core::decisions::DecidedBy;
use switchboard_core::gate::CallError;
use switchboard_core::server_events::RequestFailure;
use switchboard_providers::{Message, StopReason, Trouble, Usage};

/// One step of a run, in order. A run's last event is [`ChatEvent::Finished`] or
/// [`ChatEvent::Error`].
// Provider and MCP payloads are described to the face as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "event",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ChatEvent {
    /// The next piece of the model's answer.
    TextDelta { text: String },
    /// The next piece of what the model thinks before it answers.
    ReasoningDelta { text: String },
    /// The model began to write a call of a server's tool, the `index`th call of its answer
    /// (its arguments follow, as it writes them; the call itself comes once it is whole).
    ToolCallWriting {
        index: u32,
        server: String,
        tool: String,
    },
    /// The next piece of the arguments of the call the model writes (JSON, unfinished).
    ToolCallWritten { index: u32, text: String },
    /// The provider failed in a way that may pass: the answer so far is dropped, and asked
    /// for again after `wait_ms`.
    Retrying {
        attempt: u32,
        wait_ms: u64,
        error: String,
        trouble: Trouble,
    },
    /// The conversation did not fit the model's context: it is asked again with the images
    /// and long tool results of earlier turns left out of the request (the conversation
    /// keeps them).
    Trimmed { images: u32, results: u32 },
    /// The model called a tool; the call waits for a standing rule or the person (the
    /// approval broker lists the question).
    ToolCallAwaiting {
        call_id: String,
        /// The name the model called.
        name: String,
        server: String,
        tool: String,
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        arguments: Value,
    },
    /// The call was allowed and runs, with these arguments (the person may have edited
    /// them).
    ToolCallRunning {
        call_id: String,
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        arguments: Map<String, Value>,
        decided_by: DecidedBy,
    },
    ToolCallProgress {
        call_id: String,
        // A server's JSON number: never NaN, so never null.
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        progress: f64,
        #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
        total: Option<f64>,
        message: Option<String>,
    },
    /// The tool answered (`CallToolResult` as the server sent it); `is_error` when the
    /// tool says it failed.
    ToolCallResult {
        call_id: String,
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        result: Value,
        is_error: bool,
    },
    /// A rule or the person refused the call, or no one answered in time.
    ToolCallDenied {
        call_id: String,
        decided_by: DecidedBy,
    },
    /// The call could not be made or did not finish (unknown tool, bad arguments, the
    /// server's error, a Stop).
    ToolCallFailed { call_id: String, error: CallFailure },
    /// A message was completed and added to the conversation; for the model's answer,
    /// what it took.
    Message {
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        message: Message,
        spent: Option<Spent>,
    },
    /// The run is over.
    Finished {
        ended: Ended,
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        usage: Usage,
    },
    /// The run ended on an error: the provider's own message, or what failed;
    /// `too_long` when the conversation did not fit the model's context even with its
    /// earlier images and long results left out (summarising its earlier turns may help).
    Error {
        message: String,
        /// The provider's trouble by kind, when the provider failed.
        trouble: Option<Trouble>,
        #[serde(default)]
        too_long: bool,
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        usage: Usage,
    },
}

/// Why a run ended, when it did not fail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "by", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum Ended {
    /// The model stopped, for this reason (not to call tools).
    Model {
        #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::Json))]
        reason: StopReason,
        /// Its last answer held no text: the person is told so rather than shown nothing.
        said_nothing: bool,
    },
    /// The model still called tools when the run reached its most rounds.
    RoundLimit { rounds: u32 },
    /// The person pressed Stop.
    Stopped,
}

/// What one answer of the model took, as its provider counted it, and which model gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Spent {
    pub model: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Of the input, what the provider read from its prompt cache.
    #[serde(default)]
    pub cache_read_tokens: u64,
}

/// How a run ended, as it returns.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Finished {
        ended: Ended,
        usage: Usage,
    },
    Failed {
        message: String,
        /// The provider's trouble by kind, when the provider failed.
        trouble: Option<Trouble>,
        /// The conversation does not fit the model's context (see [`ChatEvent::Error`]).
        too_long: bool,
        usage: Usage,
    },
}

impl Outcome {
    pub fn usage(&self) -> Usage {
        match self {
            Self::Finished { usage, .. } | Self::Failed { usage, .. } => *usage,
        }
    }

    /// The event that tells a face.
    pub fn event(&self) -> ChatEvent {
        match self {
            Self::Finished { ended, usage } => ChatEvent::Finished {
                ended: ended.clone(),
                usage: *usage,
            },
            Self::Failed {
                message,
                trouble,
                too_long,
                usage,
            } => ChatEvent::Error {
                message: message.clone(),
                trouble: trouble.clone(),
                too_long: *too_long,
                usage: *usage,
            },
        }
    }
}

/// Two counts of tokens added: a run's rounds.
pub fn add_usage(total: &mut Usage, more: Option<Usage>) {
    let Some(more) = more else { return };
    let sum = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
    };
    total.input_tokens += more.input_tokens;
    total.output_tokens += more.output_tokens;
    total.cache_read_tokens = sum(total.cache_read_tokens, more.cache_read_tokens);
    total.cache_write_tokens = sum(total.cache_write_tokens, more.cache_write_tokens);
}

/// Why a tool call of the model could not be made or did not finish: a kind the window
/// words in the person's language, or another part's words as they came. `Display` is the
/// host's English, which the model is told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CallFailure {
    /// The conversation was stopped while it waited or ran.
    Stopped,
    /// Its server is not running.
    NotRunning { server: String },
    /// The model named a tool it was not offered.
    NoTool { name: String },
    /// The model's arguments are not a JSON object: what they were.
    NotAnObject { arguments: String },
    /// The server lists no such skill.
    NoSkill { server: String, name: String },
    /// The request to the server came to nothing: why, as the Explorer says it.
    Request { failure: RequestFailure },
    /// Another part's words (the server's, the gate's), as they came.
    Said { text: String },
}

impl std::fmt::Display for CallFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Stopped => f.write_str("the conversation was stopped"),
            Self::NotRunning { server } => write!(f, "The server {server} is not running."),
            Self::NoTool { name } => write!(f, "There is no tool named {name:?}."),
            Self::NotAnObject { arguments } => {
                write!(
                    f,
                    "The arguments must be a JSON object; they were: {arguments}"
                )
            }
            Self::NoSkill { server, name } => write!(f, "{server} lists no skill named {name:?}."),
            Self::Request { failure } => write!(f, "{failure}"),
            Self::Said { text } => f.write_str(text),
        }
    }
}

impl CallFailure {
    pub fn said(text: impl std::fmt::Display) -> Self {
        Self::Said {
            text: text.to_string(),
        }
    }

    /// Why the gate or the server gave no result: the request's failure by kind, anything
    /// else in the gate's words.
    pub fn of(error: &CallError) -> Self {
        match error {
            CallError::Client(client) => Self::Request {
                failure: client.into(),
            },
            other => Self::said(other),
        }
    }
}

#[cfg(test)]
mod failures {
    use super::*;
    use switchboard_mcp::client::ClientError;
    use switchboard_mcp::connection::RequestError;
    use switchboard_mcp::jsonrpc::ErrorObject;

    #[test]
    fn a_request_that_came_to_nothing_is_told_by_kind_in_the_gates_words() {
        let refused = CallError::Client(ClientError::Request(RequestError::Server {
            method: "tools/call".into(),
            error: ErrorObject::new(-32603, "disk full"),
        }));
        let failure = CallFailure::of(&refused);
        assert_eq!(
            failure,
            CallFailure::Request {
                failure: RequestFailure::ServerError {
                    method: "tools/call".into(),
                    message: "disk full".into(),
                    code: -32603
                }
            }
        );
        assert_eq!(failure.to_string(), refused.to_string());
        let cancelled = CallError::Cancelled {
            tool: "echo".into(),
        };
        assert_eq!(CallFailure::of(&cancelled), CallFailure::said(&cancelled));
    }
}

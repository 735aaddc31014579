//! Why a request to a server came to nothing: a kind the window words in the person's
//! language, whether the person asked (the Explorer) or a model did (the chat), with what
//! came from elsewhere (the server's message, the system's and the checker's words) kept as
//! it came. `Display` is the engine's English, word for word: it is what a model is told.

use std::fmt;

use serde::Serialize;
use switchboard_mcp::client::ClientError;
use switchboard_mcp::client::tool_schemas::SchemaRole;
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::jsonrpc::FrameError;
use switchboard_mcp::schema::describe;
use switchboard_mcp::transport::TransportError;

use super::Reason;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RequestFailure {
    /// The server's error answer: its message and code, as it sent them.
    ServerError {
        method: String,
        message: String,
        code: i64,
    },
    /// No answer within `seconds` ("30.0").
    NoAnswer {
        method: String,
        seconds: String,
    },
    Cancelled {
        method: String,
    },
    /// The request could not be sent: why, as a server's state says it.
    Undelivered {
        method: String,
        reason: Reason,
    },
    /// The connection closed while the request waited: why, as a server's state says it.
    Closed {
        reason: Reason,
    },
    /// The answer was larger than the host reads (a flooding server).
    TooLarge {
        method: String,
        bytes: usize,
        limit: usize,
    },
    /// The answer could not be read: the parser's words.
    Unreadable {
        method: String,
        error: String,
    },
    /// The answer is not what the protocol asks for: the checker's words.
    BadResult {
        method: String,
        detail: String,
    },
    /// The arguments do not fit the tool's input schema: the checker's words.
    BadArguments {
        tool: String,
        errors: String,
    },
    /// The result's structured content does not fit the tool's output schema.
    BadStructuredContent {
        tool: String,
        errors: String,
    },
    /// The tool declares an output schema, and its result has no structured content.
    NoStructuredContent {
        tool: String,
    },
    /// A schema of the tool cannot be compiled: which, and the compiler's words.
    UnusableSchema {
        tool: String,
        output: bool,
        error: String,
    },
    /// The server does not offer what was asked of it ("prompts").
    NotOffered {
        what: String,
    },
    /// The server speaks no protocol revision the host speaks: those it speaks.
    NoSharedRevision {
        supported: String,
    },
    /// The server refused the request's protocol revision: the one asked for, and those
    /// it speaks.
    RevisionRefused {
        method: String,
        requested: String,
        supported: String,
    },
    /// The engine's words, as they came.
    Said {
        text: String,
    },
}

impl RequestFailure {
    /// The same failure with each text that came from elsewhere passed through `f` (to
    /// mask what they hold).
    pub fn map_texts(self, f: impl Fn(&str) -> String + Copy) -> Self {
        match self {
            Self::ServerError {
                method,
                message,
                code,
            } => Self::ServerError {
                method,
                message: f(&message),
                code,
            },
            Self::Undelivered { method, reason } => Self::Undelivered {
                method,
                reason: reason.map_texts(f),
            },
            Self::Closed { reason } => Self::Closed {
                reason: reason.map_texts(f),
            },
            Self::Unreadable { method, error } => Self::Unreadable {
                method,
                error: f(&error),
            },
            Self::BadResult { method, detail } => Self::BadResult {
                method,
                detail: f(&detail),
            },
            Self::Said { text } => Self::Said { text: f(&text) },
            other => other,
        }
    }
}

impl From<&ClientError> for RequestFailure {
    fn from(error: &ClientError) -> Self {
        match error {
            ClientError::Request(request) => request.into(),
            ClientError::InvalidResult { method, detail } => Self::BadResult {
                method: (*method).to_owned(),
                detail: detail.clone(),
            },
            ClientError::InvalidArguments { tool, errors } => Self::BadArguments {
                tool: tool.clone(),
                errors: describe(errors),
            },
            ClientError::InvalidStructuredContent { tool, errors, .. } => {
                Self::BadStructuredContent {
                    tool: tool.clone(),
                    errors: describe(errors),
                }
            }
            ClientError::MissingStructuredContent { tool, .. } => {
                Self::NoStructuredContent { tool: tool.clone() }
            }
            ClientError::UnusableSchema { tool, role, error } => Self::UnusableSchema {
                tool: tool.clone(),
                output: *role == SchemaRole::Output,
                error: error.to_string(),
            },
            ClientError::NotOffered(what) => Self::NotOffered {
                what: (*what).to_owned(),
            },
            ClientError::NoSharedRevision { supported } => Self::NoSharedRevision {
                supported: supported.clone(),
            },
            ClientError::UnsupportedProtocolVersion {
                method,
                requested,
                supported,
            } => Self::RevisionRefused {
                method: (*method).to_owned(),
                requested: requested.clone(),
                supported: supported.clone(),
            },
            other => Self::Said {
                text: other.to_string(),
            },
        }
    }
}

impl From<&RequestError> for RequestFailure {
    fn from(error: &RequestError) -> Self {
        match error {
            RequestError::Server { method, error } => Self::ServerError {
                method: method.clone(),
                message: error.message.clone(),
                code: error.code,
            },
            RequestError::Timeout { method, after } => Self::NoAnswer {
                method: method.clone(),
                seconds: format!("{:.1}", after.as_secs_f64()),
            },
            RequestError::Cancelled { method } => Self::Cancelled {
                method: method.clone(),
            },
            RequestError::Transport {
                method,
                error: error @ TransportError::Connect { .. },
            } => Self::Undelivered {
                method: method.clone(),
                reason: Reason::from(error),
            },
            RequestError::Closed(closed) => Self::Closed {
                reason: closed.as_ref().into(),
            },
            RequestError::Unreadable {
                method,
                error: FrameError::TooLarge { bytes, limit },
            } => Self::TooLarge {
                method: method.clone(),
                bytes: *bytes,
                limit: *limit,
            },
            RequestError::Unreadable { method, error } => Self::Unreadable {
                method: method.clone(),
                error: error.to_string(),
            },
            other => Self::Said {
                text: other.to_string(),
            },
        }
    }
}

impl fmt::Display for RequestFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ServerError {
                method,
                message,
                code,
            } => write!(
                f,
                "the server answered {method} with an error: {message} (code {code})"
            ),
            Self::NoAnswer { method, seconds } => {
                write!(f, "no answer to {method} within {seconds} s")
            }
            Self::Cancelled { method } => write!(f, "{method} was cancelled"),
            Self::Undelivered { method, reason } => {
                write!(f, "{method} could not be delivered: {reason}")
            }
            Self::Closed { reason } => write!(f, "the connection is closed: {reason}"),
            Self::TooLarge {
                method,
                bytes,
                limit,
            } => write!(
                f,
                "the server's answer to {method} could not be read: {}",
                FrameError::TooLarge {
                    bytes: *bytes,
                    limit: *limit
                }
            ),
            Self::Unreadable { method, error } => write!(
                f,
                "the server's answer to {method} could not be read: {error}"
            ),
            Self::BadResult { method, detail } => {
                write!(f, "the server's answer to {method} is not valid: {detail}")
            }
            Self::BadArguments { tool, errors } => write!(
                f,
                "the arguments for {tool} do not fit its input schema: {errors}"
            ),
            Self::BadStructuredContent { tool, errors } => write!(
                f,
                "the structured content of {tool} does not fit its output schema: {errors}"
            ),
            Self::NoStructuredContent { tool } => write!(
                f,
                "{tool} declares an output schema, but its result has no structured content"
            ),
            Self::UnusableSchema {
                tool,
                output,
                error,
            } => {
                let role = if *output {
                    SchemaRole::Output
                } else {
                    SchemaRole::Input
                };
                write!(f, "the {role} of {tool} cannot be used: {error}")
            }
            Self::NotOffered { what } => write!(f, "the server does not offer {what}"),
            Self::NoSharedRevision { supported } => write!(
                f,
                "the server speaks no protocol revision this client speaks (it speaks {supported})"
            ),
            Self::RevisionRefused {
                method,
                requested,
                supported,
            } => write!(
                f,
                "the server refused {method}: it does not speak protocol revision {requested} (it speaks {supported})"
            ),
            Self::Said { text } => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;
    use switchboard_mcp::jsonrpc::ErrorObject;
    use switchboard_mcp::transport::CloseReason;

    /// Each kind says in English exactly what the engine said: a model is told these words.
    #[test]
    fn each_kind_says_what_the_engine_said() {
        let request = |e: RequestError| ClientError::Request(e);
        let errors = [
            request(RequestError::Server {
                method: "tools/call".into(),
                error: ErrorObject::new(-32603, "disk full"),
            }),
            request(RequestError::Timeout {
                method: "tools/call".into(),
                after: Duration::from_millis(30_040),
            }),
            request(RequestError::Cancelled {
                method: "tools/call".into(),
            }),
            request(RequestError::Transport {
                method: "tools/call".into(),
                error: TransportError::Connect {
                    url: "http://127.0.0.1:9/mcp".into(),
                    detail: "connection refused".into(),
                },
            }),
            request(RequestError::Closed(Arc::new(CloseReason {
                detail: "the server exited".into(),
                exit: Some("exit status: 3".into()),
                stderr_tail: vec!["panicked".into()],
                unauthorized: false,
            }))),
            request(RequestError::Unreadable {
                method: "tools/call".into(),
                error: FrameError::TooLarge {
                    bytes: 70_000_000,
                    limit: 67_108_864,
                },
            }),
            request(RequestError::Unreadable {
                method: "tools/call".into(),
                error: FrameError::NotJson("expected value".into()),
            }),
            ClientError::InvalidResult {
                method: "tools/list",
                detail: "missing field `tools`".into(),
            },
            ClientError::NotOffered("prompts"),
            ClientError::NoSharedRevision {
                supported: "2024-10-07".into(),
            },
            ClientError::UnsupportedProtocolVersion {
                method: "tools/list",
                requested: "2026-07-28".into(),
                supported: "2025-06-18".into(),
            },
            ClientError::NotStateless {
                reason: "it answered server/discover with an error".into(),
            },
        ];
        let kinds: Vec<RequestFailure> = errors.iter().map(RequestFailure::from).collect();
        for (error, kind) in errors.iter().zip(&kinds) {
            assert_eq!(kind.to_string(), error.to_string());
        }
        assert!(matches!(
            kinds[3],
            RequestFailure::Undelivered {
                reason: Reason::Unreachable { .. },
                ..
            }
        ));
        assert!(matches!(
            &kinds[4],
            RequestFailure::Closed { reason: Reason::Exited { exit, .. } } if exit == "exit status: 3"
        ));
        assert!(matches!(
            kinds[5],
            RequestFailure::TooLarge {
                bytes: 70_000_000,
                ..
            }
        ));
        assert!(matches!(kinds[11], RequestFailure::Said { .. }));
    }
}

//! What can go wrong when calling a provider, with the provider's own words.
//!
//! An error answer is read in the shapes providers use: OpenAI's and Anthropic's
//! `{"error": {"type", "message", "code"}}`, Ollama's `{"error": "..."}`, vLLM's top-level
//! `{"message", "type", "code"}`, FastAPI's `{"detail"}`, and plain text from a proxy. The
//! variant follows the HTTP status and the provider's error type or code; only a "context
//! too long" answer, for which some providers have no code, is also recognized by the
//! phrasing each one documents (see [`CONTEXT_TOO_LONG_PHRASES`]).

use std::time::{Duration, SystemTime};

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::Value;

/// Longest provider message kept, in characters (a proxy may answer with a whole page).
const MESSAGE_LIMIT: usize = 2000;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The API key is missing, wrong or not allowed this (401, 403).
    #[error("the provider refused the API key{}: {message}", http(*.status))]
    Auth {
        status: Option<u16>,
        message: String,
    },
    /// Too many requests (429); `retry_after` is how long the provider asked to wait.
    #[error("the provider limits the rate of requests{}: {message}", wait(*.retry_after))]
    RateLimited {
        message: String,
        retry_after: Option<Duration>,
    },
    /// The provider failed or is overloaded (5xx, Anthropic's 529, or such an error in
    /// the middle of a stream); trying again later may work.
    #[error("the provider is failing or overloaded{}{}: {message}", http(*.status), wait(*.retry_after))]
    Unavailable {
        status: Option<u16>,
        message: String,
        retry_after: Option<Duration>,
    },
    /// The account behind the key has no quota or credit left (OpenAI's 429
    /// `insufficient_quota`, Anthropic's credit balance): waiting does not help.
    #[error("the provider's quota for this key is used up{}: {message}", http(*.status))]
    QuotaExceeded {
        status: Option<u16>,
        message: String,
    },
    /// The conversation (or the request) is too large for the model.
    #[error("the conversation is too long for the model{}: {message}", http(*.status))]
    ContextTooLong {
        status: Option<u16>,
        message: String,
    },
    /// Any other refusal of the request (400 invalid, 404 unknown model, ...).
    #[error("the provider refused the request{}: {message}", http(*.status))]
    Refused {
        status: Option<u16>,
        /// The provider's type or code for the error, when it gave one.
        kind: Option<String>,
        message: String,
    },
    /// The provider could not be reached, or the connection broke or stayed silent.
    #[error("the provider could not be reached: {0}")]
    Connection(String),
    /// A whole answer that is not what the protocol says.
    #[error("the provider's answer could not be read: {0}")]
    MalformedResponse(String),
    /// A streamed answer that is not what the protocol says, or that ended early.
    #[error("the provider's stream could not be read: {0}")]
    MalformedStream(String),
    /// The provider's settings cannot make a request (a bad base URL, say).
    #[error("the provider settings are not usable: {0}")]
    Config(String),
}

/// What went wrong with a provider, by kind for a face to say in its language: the
/// provider's own message (and HTTP status, and the wait it asked for) as it sent them.
/// Its English is the error's (`Error`'s `Display`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Trouble {
    Auth {
        status: Option<u16>,
        message: String,
    },
    /// `retry_after`: the seconds the provider asked to wait, as it said them ("30").
    RateLimited {
        message: String,
        retry_after: Option<String>,
    },
    Unavailable {
        status: Option<u16>,
        message: String,
        retry_after: Option<String>,
    },
    QuotaExceeded {
        status: Option<u16>,
        message: String,
    },
    ContextTooLong {
        status: Option<u16>,
        message: String,
    },
    Refused {
        status: Option<u16>,
        message: String,
    },
    /// Unreachable: what the connection met, in the system's words.
    Connection {
        detail: String,
    },
    MalformedResponse {
        detail: String,
    },
    MalformedStream {
        detail: String,
    },
    Config {
        detail: String,
    },
}

impl Error {
    /// What went wrong, by kind, for a face.
    pub fn trouble(&self) -> Trouble {
        let secs = |d: &Option<Duration>| d.map(|d| d.as_secs_f64().to_string());
        match self {
            Self::Auth { status, message } => Trouble::Auth {
                status: *status,
                message: message.clone(),
            },
            Self::RateLimited {
                message,
                retry_after,
            } => Trouble::RateLimited {
                message: message.clone(),
                retry_after: secs(retry_after),
            },
            Self::Unavailable {
                status,
                message,
                retry_after,
            } => Trouble::Unavailable {
                status: *status,
                message: message.clone(),
                retry_after: secs(retry_after),
            },
            Self::QuotaExceeded { status, message } => Trouble::QuotaExceeded {
                status: *status,
                message: message.clone(),
            },
            Self::ContextTooLong { status, message } => Trouble::ContextTooLong {
                status: *status,
                message: message.clone(),
            },
            Self::Refused {
                status, message, ..
            } => Trouble::Refused {
                status: *status,
                message: message.clone(),
            },
            Self::Connection(detail) => Trouble::Connection {
                detail: detail.clone(),
            },
            Self::MalformedResponse(detail) => Trouble::MalformedResponse {
                detail: detail.clone(),
            },
            Self::MalformedStream(detail) => Trouble::MalformedStream {
                detail: detail.clone(),
            },
            Self::Config(detail) => Trouble::Config {
                detail: detail.clone(),
            },
        }
    }

    /// How long the provider asked to wait before trying again, when it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RateLimited { retry_after, .. } | Self::Unavailable { retry_after, .. } => {
                *retry_after
            }
            _ => None,
        }
    }

    /// Whether the same request may succeed later.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. } | Self::Unavailable { .. } | Self::Connection(_)
        )
    }

    /// The same error with every occurrence of `secret` in its text replaced: a server
    /// that echoes the key it was given in an error does not put it in a log.
    pub(crate) fn redact(self, secret: Option<&str>) -> Self {
        let Some(secret) = secret.filter(|s| s.len() >= 4) else {
            return self;
        };
        let clean = |text: String| text.replace(secret, "<redacted>");
        match self {
            Self::Auth { status, message } => Self::Auth {
                status,
                message: clean(message),
            },
            Self::RateLimited {
                message,
                retry_after,
            } => Self::RateLimited {
                message: clean(message),
                retry_after,
            },
            Self::Unavailable {
                status,
                message,
                retry_after,
            } => Self::Unavailable {
                status,
                message: clean(message),
                retry_after,
            },
            Self::ContextTooLong { status, message } => Self::ContextTooLong {
                status,
                message: clean(message),
            },
            Self::Refused {
                status,
                kind,
                message,
            } => Self::Refused {
                status,
                kind,
                message: clean(message),
            },
            Self::Connection(message) => Self::Connection(clean(message)),
            Self::QuotaExceeded { status, message } => Self::QuotaExceeded {
                status,
                message: clean(message),
            },
            Self::MalformedResponse(message) => Self::MalformedResponse(clean(message)),
            Self::MalformedStream(message) => Self::MalformedStream(clean(message)),
            Self::Config(message) => Self::Config(clean(message)),
        }
    }

    pub(crate) fn from_reqwest(e: reqwest::Error) -> Self {
        let what = if e.is_timeout() {
            "no answer in time"
        } else if e.is_connect() {
            "could not connect"
        } else if e.is_body() || e.is_decode() {
            "the connection broke"
        } else {
            "the request failed"
        };
        Self::Connection(format!("{what}: {}", source_chain(&e)))
    }
}

fn http(status: Option<u16>) -> String {
    status.map(|s| format!(" (HTTP {s})")).unwrap_or_default()
}

fn wait(retry_after: Option<Duration>) -> String {
    retry_after
        .map(|d| format!(" (retry after {} s)", d.as_secs_f64()))
        .unwrap_or_default()
}

/// An error and what caused it, on one line.
fn source_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// The messages by which providers that give no code say that the conversation is too
/// long: Anthropic ("prompt is too long: 208310 tokens > 200000 maximum"), OpenAI, vLLM,
/// OpenRouter and Groq ("This model's maximum context length is ..."), llama.cpp ("the
/// request exceeds the available context size"), LM Studio ("... context length ...").
pub const CONTEXT_TOO_LONG_PHRASES: &[&str] = &[
    "prompt is too long",
    "maximum context length",
    "exceeds the available context size",
    "context length exceeded",
    "context window",
];

/// The codes or types providers give the same error: OpenAI and Groq's
/// `context_length_exceeded`, llama.cpp's `exceed_context_size_error`, Anthropic's
/// `request_too_large` (413, the request's bytes).
const CONTEXT_TOO_LONG_CODES: &[&str] = &[
    "context_length_exceeded",
    "exceed_context_size_error",
    "request_too_large",
];

/// What an error body says.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ProviderError {
    pub message: String,
    /// The error's `type` (OpenAI, Anthropic, llama.cpp) ...
    pub kind: Option<String>,
    /// ... and its `code` (OpenAI, vLLM), a string or a number.
    pub code: Option<String>,
}

impl ProviderError {
    /// Reads an error body in any of the shapes of the module comment.
    pub fn parse(body: &[u8]) -> Self {
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => Self::from_json(&value),
            Err(_) => Self {
                message: clip(String::from_utf8_lossy(body).trim()),
                ..Self::default()
            },
        }
    }

    pub fn from_json(value: &Value) -> Self {
        let inner = match value.get("error") {
            Some(Value::String(message)) => {
                return Self {
                    message: clip(message),
                    ..Self::default()
                };
            }
            Some(error @ Value::Object(_)) => error,
            _ => value,
        };
        let text = |key: &str| match inner.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let message = text("message")
            .or_else(|| text("detail"))
            .map(|m| clip(&m))
            .unwrap_or_else(|| clip(&value.to_string()));
        Self {
            message,
            kind: text("type"),
            code: text("code"),
        }
    }

    fn is_context_too_long(&self) -> bool {
        let named = [&self.kind, &self.code]
            .into_iter()
            .flatten()
            .any(|c| CONTEXT_TOO_LONG_CODES.contains(&c.as_str()));
        let message = self.message.to_lowercase();
        named
            || CONTEXT_TOO_LONG_PHRASES
                .iter()
                .any(|phrase| message.contains(phrase))
    }

    /// Whether the account has nothing left to spend, by the code OpenAI gives it or the
    /// words of Anthropic's.
    fn is_quota_exceeded(&self) -> bool {
        self.is(&["insufficient_quota"])
            || self
                .message
                .to_lowercase()
                .contains("credit balance is too low")
    }

    fn is(&self, kinds: &[&str]) -> bool {
        [&self.kind, &self.code]
            .into_iter()
            .flatten()
            .any(|c| kinds.contains(&c.as_str()))
    }

    /// The error for an answer with this HTTP status.
    pub fn into_error(self, status: StatusCode, retry_after: Option<Duration>) -> Error {
        let code = status.as_u16();
        let message = if self.message.is_empty() {
            status.canonical_reason().unwrap_or("no message").to_owned()
        } else {
            self.message.clone()
        };
        let status = Some(code);
        if self.is_quota_exceeded() {
            return Error::QuotaExceeded { status, message };
        }
        match code {
            401 | 403 => Error::Auth { status, message },
            429 => Error::RateLimited {
                message,
                retry_after,
            },
            413 => Error::ContextTooLong { status, message },
            _ if self.is_context_too_long() => Error::ContextTooLong { status, message },
            500..=599 => Error::Unavailable {
                status,
                message,
                retry_after,
            },
            _ => Error::Refused {
                status,
                kind: self.kind.or(self.code),
                message,
            },
        }
    }

    /// The error for one reported inside a stream, where there is no status: the type
    /// says which (Anthropic's `overloaded_error`, OpenAI's `server_error`, ...).
    pub fn into_stream_error(self) -> Error {
        if self.is_quota_exceeded() {
            return Error::QuotaExceeded {
                status: None,
                message: self.message,
            };
        }
        if self.is(&[
            "authentication_error",
            "permission_error",
            "invalid_api_key",
        ]) {
            return Error::Auth {
                status: None,
                message: self.message,
            };
        }
        if self.is(&[
            "rate_limit_error",
            "rate_limit_exceeded",
            "requests",
            "tokens",
        ]) {
            return Error::RateLimited {
                message: self.message,
                retry_after: None,
            };
        }
        if self.is_context_too_long() {
            return Error::ContextTooLong {
                status: None,
                message: self.message,
            };
        }
        if self.is(&["invalid_request_error", "not_found_error"]) {
            return Error::Refused {
                status: None,
                kind: self.kind.or(self.code),
                message: self.message,
            };
        }
        // `overloaded_error`, `api_error`, `server_error`, and anything unknown: the
        // provider failed mid-answer.
        Error::Unavailable {
            status: None,
            message: self.message,
            retry_after: None,
        }
    }
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(MESSAGE_LIMIT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// How long the provider asks to wait: `retry-after-ms` (OpenAI), else `retry-after` in
/// seconds or as an HTTP date.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        return seconds(ms / 1000.0);
    }
    let value = header("retry-after")?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return seconds(secs);
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

fn seconds(secs: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(secs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn error(status: u16, body: &str) -> Error {
        ProviderError::parse(body.as_bytes())
            .into_error(StatusCode::from_u16(status).unwrap(), None)
    }

    #[test]
    fn each_error_shape_gives_the_providers_message() {
        let openai = r#"{"error":{"message":"Incorrect API key provided: sk-ab***yz.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
        let anthropic = r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}"#;
        let ollama = r#"{"error":"model \"llama9\" not found, try pulling it first"}"#;
        let vllm = r#"{"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}"#;
        assert!(
            matches!(error(401, openai), Error::Auth { message, .. } if message.starts_with("Incorrect API key"))
        );
        assert!(
            matches!(error(401, anthropic), Error::Auth { message, .. } if message == "invalid x-api-key")
        );
        assert!(
            matches!(error(404, ollama), Error::Refused { message, .. } if message.contains("try pulling"))
        );
        assert!(
            matches!(error(404, vllm), Error::Refused { message, kind, .. } if message.contains("does not exist") && kind.as_deref() == Some("NotFoundError"))
        );
        assert!(
            matches!(error(502, "<html>Bad gateway</html>"), Error::Unavailable { message, .. } if message == "<html>Bad gateway</html>")
        );
        assert!(
            matches!(error(503, ""), Error::Unavailable { message, .. } if message == "Service Unavailable")
        );
    }

    #[test]
    fn context_too_long_in_every_providers_words() {
        let bodies = [
            r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}"#,
            r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#,
            r#"{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","param":null,"code":400}"#,
        ];
        for body in bodies {
            assert!(
                matches!(error(400, body), Error::ContextTooLong { .. }),
                "{body}"
            );
        }
        let too_large = r#"{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}"#;
        assert!(matches!(
            error(413, too_large),
            Error::ContextTooLong { .. }
        ));
        let other = r#"{"error":{"message":"Invalid value for 'temperature'","type":"invalid_request_error","code":null}}"#;
        assert!(matches!(error(400, other), Error::Refused { .. }));
    }

    #[test]
    fn overloaded_and_rate_limited() {
        let overloaded =
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert!(
            matches!(error(529, overloaded), Error::Unavailable { status: Some(529), message, .. } if message == "Overloaded")
        );
        let mid_stream = ProviderError::parse(overloaded.as_bytes()).into_stream_error();
        assert!(matches!(
            mid_stream,
            Error::Unavailable { status: None, .. }
        ));
        let limited =
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#;
        assert!(matches!(
            ProviderError::parse(limited.as_bytes()).into_stream_error(),
            Error::RateLimited { .. }
        ));
    }

    #[test]
    fn retry_after_in_seconds_milliseconds_or_a_date() {
        let mut headers = HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert("retry-after-ms", HeaderValue::from_static("1500"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(1500)));
        headers.remove("retry-after-ms");
        let later = SystemTime::now() + Duration::from_secs(120);
        let date = httpdate::fmt_http_date(later);
        headers.insert("retry-after", HeaderValue::from_str(&date).unwrap());
        let wait = retry_after(&headers).unwrap();
        assert!(wait > Duration::from_secs(100) && wait <= Duration::from_secs(120));
        headers.insert("retry-after", HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&headers), None);
        headers.insert("retry-after", HeaderValue::from_static("-3"));
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn a_long_message_is_clipped() {
        let long = "x".repeat(MESSAGE_LIMIT + 10);
        let parsed = ProviderError::parse(long.as_bytes());
        assert_eq!(parsed.message.chars().count(), MESSAGE_LIMIT + 1);
    }
}

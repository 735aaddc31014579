//! Transports carry serialized messages between the connection and a server. Each is a
//! set of tasks behind two bounded channels, so the connection never waits on I/O itself.

pub mod http;
mod lines;
pub mod memory;
pub mod stdio;

use std::fmt;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::jsonrpc::{Frame, Message, RequestId, Unreadable};

/// A boxed future that may be sent between threads (the futures crate's, named here for
/// the transports and handlers that return one).
pub use futures_util::future::BoxFuture;

/// What a running transport hands to its connection.
pub struct TransportParts {
    /// Serialized messages to the server, one JSON document each.
    pub outgoing: mpsc::Sender<String>,
    /// Messages from the server, and failures to deliver ours; closed when the server is gone.
    pub incoming: mpsc::Receiver<Inbound>,
    pub control: Box<dyn TransportControl>,
    pub carrier: Carrier,
    /// The server's log, for what the connection skips of what it sent.
    pub log: LogSink,
}

/// How a transport carries requests, as far as the client must know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// One stream both ways (stdio, in memory): a request may simply go unanswered.
    Stream,
    /// One HTTP exchange per message: every request gets an answer or a failure.
    Http,
}

/// What a transport hands up to its connection.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    Message(Message),
    /// A message that could not be read, with what could be read of it.
    Unreadable(Unreadable),
    /// A batch (2025-03-26), each element read on its own.
    Batch(Vec<Result<Message, Unreadable>>),
    /// The server ended the session and the transport opened a new one: the result of the
    /// new `initialize`.
    Renewed(serde_json::Value),
    /// A request of ours could not be delivered or answered, for a reason of the transport.
    Failed {
        id: RequestId,
        error: TransportError,
    },
}

impl From<Frame> for Inbound {
    fn from(frame: Frame) -> Self {
        let Frame { mut items, batch } = frame;
        match (batch, items.pop()) {
            (false, Some(Ok(message))) if items.is_empty() => Self::Message(message),
            (false, Some(Err(unreadable))) if items.is_empty() => Self::Unreadable(unreadable),
            (_, last) => {
                items.extend(last);
                Self::Batch(items)
            }
        }
    }
}

/// Why a transport could not carry a request, typed where the caller may act on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    #[error("could not connect to {url}: {detail}")]
    Connect { url: String, detail: String },
    #[error("the TLS handshake with {url} failed: {detail}")]
    Tls { url: String, detail: String },
    /// 401 or 403: the host may start authorization.
    #[error("{url} refused the request: HTTP {status}{}", challenge.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
    Unauthorized {
        url: String,
        status: u16,
        /// The `WWW-Authenticate` header, if any.
        challenge: Option<String>,
        /// The `DPoP-Nonce` header, if any (RFC 9449 §9).
        nonce: Option<String>,
    },
    #[error("{url} answered HTTP {status}: {body}")]
    Status {
        url: String,
        status: u16,
        body: String,
    },
    #[error("the server's answer is not valid JSON-RPC: {0}")]
    InvalidBody(String),
    #[error("the server's event stream ended before the response arrived")]
    StreamEnded,
    /// No answer in time; `seconds` is the limit, when the transport knows which one struck.
    #[error("no answer from {url}{}", seconds.map(|s| format!(" within {s} s")).unwrap_or_default())]
    Timeout { url: String, seconds: Option<u64> },
    /// Neither Streamable HTTP nor the HTTP+SSE fallback worked: both reasons.
    #[error("Streamable HTTP failed ({streamable}), and so did the HTTP+SSE fallback ({legacy})")]
    NoTransport {
        streamable: Box<TransportError>,
        legacy: Box<TransportError>,
    },
    /// The server ended the session and a new one was opened: a page cursor of the old
    /// one means nothing any more, and the list must be walked again.
    #[error("the server started a new session; the list must be read again from the start")]
    SessionRenewed,
    #[error("the session expired and could not be renewed: {0}")]
    SessionLost(String),
    /// Signing in to the server failed or was not completed.
    #[error("authorization failed: {0}")]
    Authorization(#[from] crate::auth::AuthError),
    #[error("{0}")]
    Other(String),
}

/// Lifecycle of the transport behind the channels.
pub trait TransportControl: Send + Sync + 'static {
    /// Why the server went away, once `incoming` has closed.
    fn close_reason(&mut self) -> BoxFuture<'_, CloseReason>;
    /// Ends the session gracefully; called after `outgoing` was dropped.
    fn shutdown(self: Box<Self>) -> BoxFuture<'static, ()>;
}

/// Why a connection ended: what a person needs to see to understand a crash.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CloseReason {
    /// What happened, in a few words ("the server closed its output").
    pub detail: String,
    /// How the process ended, if it was a process ("exit status: 3", "signal: 9 (SIGKILL)").
    pub exit: Option<String>,
    /// The last lines the server wrote to stderr, oldest first.
    pub stderr_tail: Vec<String>,
    /// The server refused the session in its course: it needs authorization again.
    pub unauthorized: bool,
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)?;
        if let Some(exit) = &self.exit {
            write!(f, " ({exit})")?;
        }
        if let Some(last) = self.stderr_tail.last() {
            write!(f, "; last stderr line: {last}")?;
        }
        Ok(())
    }
}

/// Where a transport reports what the server wrote besides protocol messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogLine {
    /// A line the server wrote to stderr.
    Stderr(String),
    /// Something the server sent that is not a valid message; skipped.
    Protocol(String),
}

pub type LogSink = Arc<dyn Fn(LogLine) + Send + Sync>;

/// A sink that drops everything (for callers that do not keep a server log).
pub fn discard_log() -> LogSink {
    Arc::new(|_| {})
}

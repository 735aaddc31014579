//! Transports carry serialized messages between the connection and a server. Each is a
//! set of tasks behind two bounded channels, so the connection never waits on I/O itself.

mod lines;
pub mod memory;
pub mod stdio;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::jsonrpc::Message;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a running transport hands to its connection.
pub struct TransportParts {
    /// Serialized messages to the server, one JSON document each.
    pub outgoing: mpsc::Sender<String>,
    /// Messages from the server; closed when the server is gone.
    pub incoming: mpsc::Receiver<Message>,
    pub control: Box<dyn TransportControl>,
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

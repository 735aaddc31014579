//! The servers' own log messages an agent hears, named by their server: a session's agent
//! hears those at the level it set (`logging/setLevel`) of the servers it may use; a
//! stateless agent, those at the level its request named, of the server serving the
//! request, while it runs.

use serde_json::{Value, json};
use switchboard_mcp::types::{LoggingLevel, method};
use tokio::sync::broadcast;

use super::Session;
use super::era::Era;
use switchboard_core::server_events::{LogSource, ServerEvent};
use switchboard_desk::LogEntry;

impl Session {
    /// Passes on a server's own log message, if the agent asked for its level and may use
    /// the server.
    pub(super) async fn log(&self, entry: LogEntry) {
        let Some(wanted) = self.state().log_level else {
            return;
        };
        let Some(message) = log_message(&entry, wanted) else {
            return;
        };
        let reaches = self
            .inner
            .agents
            .config(self.agent())
            .is_some_and(|agent| agent.reaches(&entry.server));
        if reaches {
            self.notify(method::LOGGING_MESSAGE, Some(message)).await;
        }
    }

    /// The servers' log messages from now on, for a stateless request that asked for them.
    pub(super) fn logs_for(&self, era: &Era) -> Option<Logs> {
        let Era::Stateless(meta) = era else {
            return None;
        };
        meta.log_level.map(|wanted| Logs {
            events: self.inner.agents.server_events(),
            wanted,
        })
    }
}

/// The servers' log messages a stateless request asked for, at `wanted` and above. They
/// are read from the servers' events as they come, not from the desk's updates made of
/// them later, so that those a server sent before its result are all sent before it.
pub(super) struct Logs {
    events: broadcast::Receiver<ServerEvent>,
    wanted: LoggingLevel,
}

impl Logs {
    /// The next log message of `server`'s at the level wanted, as the agent is sent it.
    pub(super) async fn next_of(&mut self, server: &str) -> Value {
        loop {
            match self.events.recv().await {
                Ok(event) => {
                    if let Some(message) = self.message(event, server) {
                        return message;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            }
        }
    }

    /// Those of `server`'s log messages already come.
    pub(super) fn come_of(&mut self, server: &str) -> Vec<Value> {
        let mut come = Vec::new();
        loop {
            match self.events.try_recv() {
                Ok(event) => come.extend(self.message(event, server)),
                Err(broadcast::error::TryRecvError::Lagged(_)) => {}
                Err(_) => return come,
            }
        }
    }

    fn message(&self, event: ServerEvent, server: &str) -> Option<Value> {
        match event {
            ServerEvent::Log {
                server: from,
                source: LogSource::Server,
                level: Some(level),
                text,
                ..
            } if from == server && level >= self.wanted => Some(log_notice(level, &from, &text)),
            _ => None,
        }
    }
}

/// A server's log message as an agent that wants `wanted` and above is sent it, if it is
/// one the server sent at such a level.
fn log_message(entry: &LogEntry, wanted: LoggingLevel) -> Option<Value> {
    let level = entry.level.as_deref()?.parse::<LoggingLevel>().ok()?;
    (level >= wanted).then(|| log_notice(level, &entry.server, &entry.text))
}

/// The `notifications/message` parameters of a server's log message, named by the server.
fn log_notice(level: LoggingLevel, server: &str, text: &str) -> Value {
    json!({"level": level, "logger": server, "data": text})
}

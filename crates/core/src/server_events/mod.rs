//! What the servers' supervisors tell the rest of the host: where each server stands, its
//! log lines, and what changed in its offers.

use serde::Serialize;
use switchboard_mcp::client::EraReason;
use switchboard_mcp::types::LoggingLevel;

use crate::sandbox::SandboxNote;

mod failure;
mod reason;
pub use failure::RequestFailure;
pub use reason::Reason;

/// Where a server stands, as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ServerState {
    Starting,
    Running {
        protocol_version: String,
        server_name: String,
        /// Spoken statelessly (2026-07-28), not in a session opened by `initialize`.
        stateless: bool,
        /// How the revision was chosen.
        why_revision: EraReason,
    },
    /// Crashed; restarts after `backoff_ms` (attempt `attempt` of the policy's limit).
    Restarting {
        attempt: u32,
        backoff_ms: u64,
        reason: Reason,
    },
    Stopped,
    /// Gave up: why (after so many restarts, if it had been restarted), and the last lines
    /// the server wrote to stderr.
    Failed {
        reason: Reason,
        gave_up_after: Option<u32>,
        stderr_tail: Vec<String>,
    },
    /// The server wants authorization (HTTP 401/403).
    AuthRequired {
        detail: Reason,
        /// Signing in cannot work here (the authorization server offers no way for this
        /// app to register): a personal access token is the way in.
        #[serde(default)]
        token_instead: bool,
    },
}

impl ServerState {
    /// Why it restarts, failed or waits for authorization, in the host's English.
    pub fn why(&self) -> Option<String> {
        match self {
            Self::Restarting { reason, .. }
            | Self::Failed {
                reason,
                gave_up_after: None,
                ..
            } => Some(reason.to_string()),
            Self::Failed {
                reason,
                gave_up_after: Some(restarts),
                ..
            } => Some(format!(
                "{reason} (gave up after {restarts} restart{})",
                if *restarts == 1 { "" } else { "s" }
            )),
            Self::AuthRequired { detail, .. } => Some(detail.to_string()),
            Self::Starting | Self::Running { .. } | Self::Stopped => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ServerEvent {
    Status {
        server: String,
        state: ServerState,
    },
    Log {
        server: String,
        source: LogSource,
        /// The MCP logging level, for the server's own log messages.
        level: Option<LoggingLevel>,
        text: String,
        /// The host's note, by kind (`text` is its English).
        note: Option<SandboxNote>,
    },
    /// A server's tools, resources or prompts changed in the catalog.
    CatalogChanged {
        server: String,
    },
    /// A subscribed resource changed: read it again to see how.
    ResourceUpdated {
        server: String,
        uri: String,
    },
    /// A sign-in began or ended waiting for the person to finish it in the browser.
    SignInWaiting {
        server: String,
        waiting: bool,
    },
}

/// Where a server's log line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum LogSource {
    /// The process's standard error.
    Stderr,
    /// What the transport noticed (malformed lines, reconnects).
    Protocol,
    /// `notifications/message`.
    Server,
    /// The host's note that a sandboxed server's refusal may be the sandbox's doing.
    Sandbox,
}

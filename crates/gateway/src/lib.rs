//! The gateway: Switchboard as one MCP server for the agents on the machine (a coding
//! agent, an IDE, a script), so that an agent configured with Switchboard alone reaches
//! every server the person runs, and the person decides each of its calls in one place.
//!
//! - [`Session`]: one agent's connection, over any transport. It answers `initialize`,
//!   lists what the agent may see of the running servers (tools and prompts named
//!   `server__name`, resources by their own URIs), and sends every tool call through the
//!   gate as the agent's ([`switchboard_core::decisions::Origin::Agent`]): its own rules, the dialog and
//!   the audit naming it; so do its reads (a resource read or subscribed to, a prompt,
//!   completions), each routed only to the server that lists the resource or whose
//!   template matches it, and marked with the server that answered. Changes of the servers' offers reach it as `list_changed`;
//!   progress and cancellation pass both ways; servers' log messages at its level;
//!   updates of the resources it subscribed to ([`subscriptions`]). It answers the
//!   stateless 2026-07-28 revision too, request by request: `server/discover`, requests
//!   that say who asks in their `_meta`, `subscriptions/listen` for the changes, a server's
//!   questions during a call (and the agent's roots, before its first) as the call's
//!   `input_required` result, and a server's log messages during a call that asked for them.
//! - [`serve`]: starts a session for a [`Caller`] on a transport (the local socket's
//!   [`bridge`]); [`http_sessions`]: the sessions of the engine's Streamable HTTP server
//!   (one per `initialize`, or per stateless request), the agent named by the identity its
//!   bearer-token check gives.
//! - [`bridge`]: the local socket `switchboard-cli bridge` connects to; [`http`]: the
//!   Streamable HTTP endpoint on 127.0.0.1, each agent with its bearer token.

pub mod bridge;
pub mod http;
#[cfg(test)]
mod layers;
mod names;
mod session;
mod subscriptions;

pub use names::Naming;
pub use session::{Caller, Session, Via, http_sessions, http_sessions_named, serve};

use switchboard_mcp::client::ClientError;
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::jsonrpc::{ErrorObject, code};

use switchboard_core::gate::CallError;
use switchboard_core::gate::pace::TooFrequent;
use switchboard_desk::AgentError;

/// The code of a call or read refused because standing rules let its agent through too
/// often (HTTP's "Too Many Requests"): an application's code, outside the range JSON-RPC
/// and MCP reserve.
pub const TOO_MANY_REQUESTS: i64 = 429;

/// A call or read refused by the pace of standing decisions, as the agent is told: when
/// it may try again, in `data` too.
fn too_frequent(over: &TooFrequent) -> ErrorObject {
    let mut error = ErrorObject::new(TOO_MANY_REQUESTS, format!("Switchboard: {over}"));
    error.data = Some(Box::new(serde_json::json!({
        "limit": over.limit,
        "retryAfterSeconds": over.retry_after.as_secs().max(1),
    })));
    error
}

/// The error the server behind answered, as it came, where the agent can act on it: any of
/// its own, and its refusal for a capability the agent did not declare (-32021).
fn servers_own(error: &AgentError) -> Option<ErrorObject> {
    let (AgentError::Client(client) | AgentError::Call(CallError::Client(client))) = error else {
        return None;
    };
    match client {
        ClientError::Request(RequestError::Server { error, .. })
        | ClientError::MissingClientCapability { error, .. } => Some(error.clone()),
        _ => None,
    }
}

/// Why a read or a subscription failed, as the agent is told: the server's own error as it
/// came; one the person (or their rule) denied as a refusal that says so; anything else as
/// an internal error.
fn refusal(error: AgentError) -> ErrorObject {
    if let Some(own) = servers_own(&error) {
        return own;
    }
    match error {
        AgentError::Call(CallError::TooFrequent(over)) => too_frequent(&over),
        AgentError::Call(denied @ CallError::ReadDenied { .. }) => ErrorObject::new(
            code::INVALID_REQUEST,
            format!("Switchboard: {denied}. Do not retry it unless the person asks."),
        ),
        other => ErrorObject::new(code::INTERNAL_ERROR, other.to_string()),
    }
}

//! What every request of an agent's meets first, and the era it is answered in. A ping is
//! always answered; anything else only while the person keeps the agent configured. A
//! request of the 2026-07-28 revision says in `_meta` who asks in which revision, and is
//! answered with no handshake before it: the methods the revision removed are refused, and
//! its results are marked `complete` (unless they ask first), with Switchboard's identity
//! and, for lists and reads, caching hints (fresh for no time: the person may change what
//! the agent sees at any moment; for this agent only).

use serde_json::{Value, json};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::handler::Finish;
use switchboard_mcp::server::stateless::{self, RequestMeta};
use switchboard_mcp::types::{Meta, method};

use super::lifecycle::server_info;
use super::{Session, not_configured};

/// Which era a request is of.
#[derive(Clone)]
pub(super) enum Era {
    /// A session opened by `initialize`.
    Stateful,
    /// 2026-07-28: what the request said of itself.
    Stateless(Box<RequestMeta>),
}

impl Era {
    /// The era of a request whose `_meta` is `meta`.
    pub(super) fn of(meta: Option<&Meta>) -> Result<Self, ErrorObject> {
        let params = json!({ "_meta": meta });
        if !stateless::is_stateless(Some(&params)) {
            return Ok(Self::Stateful);
        }
        let meta = read_meta(Some(&params))?;
        Ok(Self::Stateless(Box::new(meta)))
    }
}

impl Session {
    /// Admits a request before its method (see `ServerHandler::admit`): refuses it when
    /// the agent is gone or the revision has no such method, and says how a stateless
    /// request's result is marked.
    pub(super) fn admit_request(
        &self,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Finish, ErrorObject> {
        if method == method::PING {
            return Ok(Finish::as_answered());
        }
        // Refused as soon as the person removes the agent.
        if self.inner.agents.config(self.agent()).is_none() {
            return Err(not_configured(self.agent()));
        }
        let stateless = stateless::is_stateless(params)
            || matches!(
                method,
                method::SERVER_DISCOVER | method::SUBSCRIPTIONS_LISTEN
            );
        if !stateless {
            return Ok(Finish::as_answered());
        }
        read_meta(params)?;
        // The revision's own removals.
        if matches!(
            method,
            method::INITIALIZE
                | method::LOGGING_SET_LEVEL
                | method::RESOURCES_SUBSCRIBE
                | method::RESOURCES_UNSUBSCRIBE
        ) {
            return Err(ErrorObject::method_not_found(method));
        }
        let cacheable = matches!(
            method,
            method::SERVER_DISCOVER
                | method::TOOLS_LIST
                | method::PROMPTS_LIST
                | method::RESOURCES_LIST
                | method::RESOURCES_TEMPLATES_LIST
                | method::RESOURCES_READ
        );
        Ok(Finish::with(move |result| {
            let result = match cacheable {
                true => stateless::with_cache_hints(result, 0, true),
                false => result,
            };
            stateless::complete(result, &server_info())
        }))
    }
}

/// What a stateless request says of itself, checked: the gateway speaks the stateless
/// revision 2026-07-28, and lists every revision it speaks.
fn read_meta(params: Option<&Value>) -> Result<RequestMeta, ErrorObject> {
    stateless::read_meta(
        params,
        &[ProtocolVersion::V2026_07_28],
        &ProtocolVersion::NEWEST_FIRST,
    )
}

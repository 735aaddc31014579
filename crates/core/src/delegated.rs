//! A server's sampling or form request answered by the agent whose tool call the server is
//! serving, in the person's stead: only when the agent declared it can answer it and the
//! person let it (see [`crate::config::AgentAnswers`]). The request goes to the agent over
//! its gateway session, and its answer back to the server after the same checks as the
//! person's; the audit log names the agent. Anything else goes to the person's dialogs.
//!
//! This module knows no gateway: whoever knows the agents' sessions (the desk) finds the
//! [`Delegate`] for a request through [`Delegates`].

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use switchboard_mcp::client::input_required;
use switchboard_mcp::connection::{Connection, RequestError, RequestOptions};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::{CreateMessageRequestParams, ElicitRequestParams};

/// What a server asks, for the finder to tell whether an agent can answer it.
#[derive(Debug, Clone, Copy)]
pub enum Asked<'a> {
    Sampling(&'a CreateMessageRequestParams),
    Elicitation(&'a ElicitRequestParams),
    /// `roots/list`: the agent's folders, which the person is offered (see
    /// [`crate::server_requests::ServerRequestHandler`]); the server sees only those the person chose.
    Roots,
}

/// Where a request passed on from a server's `input_required` result says, in its `_meta`,
/// the key the server asked it under and the keys of the others of that result passed on
/// with it (see [`input_required::relaying`]): `{"key": …, "round": […]}`.
pub const RELAYED_META: &str = "switchboard/input";

/// The agent that answers a request in the person's stead: its name and its session.
#[derive(Clone)]
pub struct Delegate {
    pub agent: String,
    pub connection: Connection,
    /// How long the agent has to answer: as long as the person would have.
    pub timeout: Duration,
}

/// Finds the agent that answers a server's request, if any does.
pub trait Delegates: Send + Sync + 'static {
    fn delegate(&self, server: &str, asked: Asked<'_>) -> Option<Delegate>;
}

impl Delegate {
    /// Asks the agent `method`; its answer, or an error for the server that says why there
    /// is none (the agent refused, failed, went away or took too long). Never waits longer
    /// than the timeout.
    pub async fn ask<T: DeserializeOwned>(
        &self,
        method: &str,
        params: &impl Serialize,
        what: &str,
    ) -> Result<T, ErrorObject> {
        let options = RequestOptions {
            timeout: self.timeout,
            max_total: Some(self.timeout),
            ..RequestOptions::default()
        };
        let agent = &self.agent;
        let mut params = serde_json::to_value(params)
            .map_err(|e| ErrorObject::new(code::INTERNAL_ERROR, format!("encoding {what}: {e}")))?;
        if let (Some(relayed), Value::Object(fields)) =
            (input_required::relaying().await, &mut params)
        {
            let meta = fields.entry("_meta").or_insert_with(|| json!({}));
            if let (Value::Object(meta), Ok(relayed)) = (meta, serde_json::to_value(relayed)) {
                meta.insert(RELAYED_META.to_owned(), relayed);
            }
        }
        match self.connection.request_with(method, &params, options).await {
            Ok(answer) => serde_json::from_value(answer).map_err(|e| {
                ErrorObject::new(
                    code::INTERNAL_ERROR,
                    format!("{agent} answered {what} with something unreadable: {e}"),
                )
            }),
            // The agent's own refusal keeps its code (a person declining, say).
            Err(RequestError::Server { error, .. }) => Err(ErrorObject {
                message: format!("{agent} refused {what}: {}", error.message),
                ..error
            }),
            Err(RequestError::Timeout { .. }) => Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                format!(
                    "{agent} did not answer {what} within {} s",
                    self.timeout.as_secs()
                ),
            )),
            Err(other) => Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                format!("{agent} could not answer {what}: {other}"),
            )),
        }
    }
}

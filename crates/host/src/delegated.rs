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
use switchboard_mcp::connection::{Connection, RequestError, RequestOptions};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::{CreateMessageRequestParams, ElicitRequestParams};

/// What a server asks, for the finder to tell whether an agent can answer it.
#[derive(Debug, Clone, Copy)]
pub enum Asked<'a> {
    Sampling(&'a CreateMessageRequestParams),
    Elicitation(&'a ElicitRequestParams),
}

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
        match self.connection.request_with(method, params, options).await {
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

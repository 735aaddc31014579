//! The tools an agent sees (`tools/list`: every server's it may use, named as its naming
//! says and marked with their server) and its calls (`tools/call`): each through the gate
//! as the agent's, its progress passed on, and its end told as the agent can act on it (a
//! denial as a failed result that says not to retry, the server's own errors as they came),
//! or as a task of the gateway's ([`super::tasks`]).

use serde_json::{Map, Value};
use std::time::Duration;
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::handler::Rounds;
use switchboard_mcp::types::apps;
use switchboard_mcp::types::*;
use tokio::sync::mpsc;

use super::calls::{given, result_of};
use super::era::Era;
use super::tasks::{AsTask, Coming, takes_tasks};
use super::{Served, Session};
use switchboard_core::gate::CallError;
use switchboard_desk::AgentError;
use switchboard_desk::agents::AgentCall;

impl Session {
    pub(super) fn tools_listed(&self) -> Result<ListToolsResult, ErrorObject> {
        let tools = self.list(|server, offer| {
            offer
                .tools
                .iter()
                // A tool only its view may call is no agent's; the rest pass with their
                // views' metadata, for an agent that renders them.
                .filter(|tool| apps::offered_to_models(tool))
                .map(|tool| {
                    let mut shown = tool.clone().served_by(server);
                    shown.name = self.inner.naming.shown(server, &tool.name);
                    shown
                })
                .collect()
        })?;
        Ok(ListToolsResult {
            tools,
            next_cursor: None,
            meta: None,
            skipped: Vec::new(),
            extra: Map::new(),
        })
    }

    pub(super) async fn call_tool(
        &self,
        params: CallToolRequestParams,
        era: Era,
    ) -> Result<Rounds<CallToolResult>, ErrorObject> {
        let progress_token = params
            .meta
            .as_ref()
            .and_then(|meta| meta.get("progressToken"))
            .cloned()
            .filter(|token| token.is_string() || token.is_i64());
        let what = format!("{} {}", method::TOOLS_CALL, params.name);
        let mut given = given(&params.extra, &era)?;
        let as_task = self.task_wanted(&params, &era)?;
        let retry = matches!(era, Era::Stateless(_)) && params.extra.contains_key("requestState");
        let session = self.clone();
        let coming: Coming = if retry {
            let (what, extra, era) = (what.clone(), params.extra, era.clone());
            Box::pin(async move {
                let resumed = session
                    .resume(&what, &extra, &era, progress_token, &mut given)
                    .await?;
                Ok(resumed.expect("a stateless request with a requestState is a retry"))
            })
        } else {
            let Some((server, name)) = self
                .inner
                .agents
                .tool(self.agent(), &self.tool_id(&params.name))
            else {
                return Err(ErrorObject::invalid_params(format!(
                    "unknown tool {:?}: list the tools to see those {} may call",
                    params.name,
                    self.agent()
                )));
            };
            let (report, reports) = match progress_token {
                Some(_) => {
                    let (report, reports) = mpsc::channel(16);
                    (Some(report), Some(reports))
                }
                None => (None, None),
            };
            let arguments = params.arguments.unwrap_or_default();
            let (agents, agent) = (self.inner.agents.clone(), self.agent().to_owned());
            let running = self.start(&server, &era, reports, move |server, token| async move {
                let call = AgentCall {
                    server,
                    tool: name,
                    arguments,
                    token,
                    report,
                };
                agents.call(&agent, call).await
            });
            let (what, logs) = (what.clone(), self.logs_for(&era));
            Box::pin(async move {
                session
                    .follow(running, &what, progress_token, logs, given)
                    .await
            })
        };
        match as_task {
            Some(how) => self.as_task(how, coming, what, era).await,
            None => coming.await?.told(told),
        }
    }

    /// Whether a call runs as a task of the gateway's: in 2025-11-25 when it asks to, of a
    /// tool that may run as one; in the extension whenever the agent takes tasks. An agent
    /// that does not gets the result of a tool that must run as a task at its server as
    /// of any other, waited for: the gateway can serve it so, and so does not refuse it.
    fn task_wanted(
        &self,
        params: &CallToolRequestParams,
        era: &Era,
    ) -> Result<Option<AsTask>, ErrorObject> {
        match era {
            Era::Stateful => {
                let Some(asked) = params.extra.get("task") else {
                    return Ok(None);
                };
                let support = self.task_support(&params.name);
                if !matches!(support.as_deref(), Some("optional" | "required")) {
                    return Err(ErrorObject::method_not_found(&format!(
                        "{} of {} as a task (the tool does not run as one)",
                        method::TOOLS_CALL,
                        params.name
                    )));
                }
                let ttl = asked.get("ttl").and_then(serde_json::Value::as_u64);
                Ok(Some(AsTask::Asked(
                    ttl.map_or(Duration::MAX, Duration::from_millis),
                )))
            }
            Era::Stateless(meta) if takes_tasks(meta.capabilities.extensions.as_ref()) => {
                Ok(Some(AsTask::Taken))
            }
            Era::Stateless(_) => Ok(None),
        }
    }

    /// Whether the tool the agent named `seen` may (`optional`) or must (`required`) run as
    /// a task, as its server lists it.
    fn task_support(&self, seen: &str) -> Option<String> {
        let (server, name) = self.inner.agents.tool(self.agent(), &self.tool_id(seen))?;
        let offers = self.offers().ok()?;
        let (_, offer) = offers.iter().find(|(s, _)| *s == server)?;
        let tool = offer.tools.iter().find(|t| t.name == name)?;
        Some(tool.task_support().to_owned())
    }
}

/// What the agent is told of a call's end.
pub(super) fn told(
    outcome: Result<Value, AgentError>,
    server: &str,
) -> Result<CallToolResult, ErrorObject> {
    if let Some(own) = outcome.as_ref().err().and_then(crate::servers_own) {
        return Err(own);
    }
    match outcome {
        Ok(result) => result_of(result, server),
        Err(AgentError::Call(CallError::TooFrequent(over))) => Err(crate::too_frequent(&over)),
        Err(AgentError::Call(CallError::Denied { tool, decided_by })) => Ok(failed(format!(
            "Switchboard: the call to {tool} of {server} was denied ({decided_by}). Do not retry it unless the person asks."
        ))),
        Err(other) => Ok(failed(format!("Switchboard: {other}"))),
    }
}

/// A tool result that tells the agent (and its model) why there is no result.
fn failed(text: String) -> CallToolResult {
    let mut result = CallToolResult::new(vec![ContentBlock::text(text)]);
    result.is_error = Some(true);
    result
}

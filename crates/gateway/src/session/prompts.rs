//! The prompts an agent sees (`prompts/list`: named as its naming says and marked with
//! their server), the prompts it gets (`prompts/get`) and the completions of their
//! arguments and of resource templates' (`completion/complete`), each read through the gate
//! at the server that offers it.

use serde_json::{Map, Value};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::handler::Rounds;
use switchboard_mcp::types::*;

use super::calls::{given, read_told};
use super::era::Era;
use super::{Served, Session};
use crate::names::{self, Named};
use switchboard_core::reads::Read;

impl Session {
    pub(super) fn prompts_listed(&self) -> Result<ListPromptsResult, ErrorObject> {
        let prompts = self.list(|server, offer| {
            offer
                .prompts
                .iter()
                .map(|prompt| {
                    let mut shown = prompt.clone().served_by(server);
                    shown.name = self.inner.naming.shown(server, &prompt.name);
                    shown
                })
                .collect()
        })?;
        Ok(ListPromptsResult {
            prompts,
            next_cursor: None,
            meta: None,
            skipped: Vec::new(),
            extra: Map::new(),
        })
    }

    pub(super) async fn get_prompt(
        &self,
        params: GetPromptRequestParams,
        era: &Era,
    ) -> Result<Rounds<GetPromptResult>, ErrorObject> {
        let what = format!("{} {}", method::PROMPTS_GET, params.name);
        let mut given = given(&params.extra, era)?;
        if let Some(outcome) = self
            .resume(&what, &params.extra, era, None, &mut given)
            .await?
        {
            return outcome.told(read_told);
        }
        let offers = self.offers()?;
        let Some(Named { server, name }) =
            names::find(&self.inner.naming, &offers, &params.name, |o| {
                o.prompts.iter().map(|p| p.name.as_str()).collect()
            })
        else {
            return Err(ErrorObject::invalid_params(format!(
                "unknown prompt {:?}",
                params.name
            )));
        };
        let filled = params.arguments.unwrap_or_default();
        let read = Read::Prompt {
            name: name.clone(),
            arguments: filled.clone().into_iter().collect(),
        };
        let arguments: Map<String, Value> = filled
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        self.read(&server, read, (&what, era, given), |client| async move {
            client.get_prompt(&name, arguments).await
        })
        .await?
        .told(read_told)
    }

    /// The server's suggestions for an argument of one of its prompts or resource
    /// templates, through the gate; none when no server the agent may use offers it, or
    /// the server completes nothing.
    pub(super) async fn complete(
        &self,
        mut params: CompleteRequestParams,
        era: &Era,
    ) -> Result<Rounds<CompleteResult>, ErrorObject> {
        let of_agent = match &params.reference {
            Reference::Prompt(prompt) => &prompt.name,
            Reference::Resource(template) => &template.uri,
        };
        let what = format!(
            "{} {of_agent} {}",
            method::COMPLETION_COMPLETE,
            params.argument.name
        );
        // The state of a retry and its answers are the gateway's, not the server's.
        let extra = std::mem::take(&mut params.extra);
        let mut given = given(&extra, era)?;
        if let Some(outcome) = self.resume(&what, &extra, era, None, &mut given).await? {
            return outcome.told(read_told);
        }
        let offers = self.offers()?;
        let (server, of) = match &mut params.reference {
            Reference::Prompt(prompt) => {
                let found = names::find(&self.inner.naming, &offers, &prompt.name, |o| {
                    o.prompts.iter().map(|p| p.name.as_str()).collect()
                });
                let Some(Named { server, name }) = found else {
                    return Ok(no_completions());
                };
                prompt.name = name.clone();
                (server, name)
            }
            Reference::Resource(template) => {
                let Some(server) = names::owner_of_template(&offers, &template.uri) else {
                    return Ok(no_completions());
                };
                (server, template.uri.clone())
            }
        };
        let completes = self
            .inner
            .agents
            .running_client(&server)
            .is_ok_and(|client| client.capabilities().completions.is_some());
        if !completes {
            return Ok(no_completions());
        }
        params.extra = extra
            .into_iter()
            .filter(|(key, _)| key != "requestState" && key != "inputResponses")
            .collect();
        let read = Read::Completion {
            of,
            argument: params.argument.name.clone(),
            value: params.argument.value.clone(),
        };
        self.read(&server, read, (&what, era, given), |client| async move {
            client.complete(&params).await
        })
        .await?
        .told(read_told)
    }
}

fn no_completions() -> Rounds<CompleteResult> {
    Rounds::Complete(CompleteResult {
        completion: Completion::default(),
        meta: None,
        extra: Map::new(),
    })
}

//! Servers' sampling requests answered by the person's model: the draft of a pending
//! request's reply for the person to review, the servers allowed to be answered without
//! review, and the core's models (what answers a request without review).

use std::pin::Pin;

use switchboard_chat::drafts::{self, DraftError};
use switchboard_core::approvals::{AnswerError, Question};
use switchboard_core::audit::ByRule;
use switchboard_core::clock::now_ms;
use switchboard_core::config::SamplingRule;
use switchboard_core::decisions::DecidedBy;
use switchboard_core::sampling::{
    Chosen, Drafted, NotDrafted, SamplingModels, Unreviewed, is_configured,
};
use switchboard_mcp::types::CreateMessageRequestParams;

use tokio_util::sync::CancellationToken;

use super::{ChatError, Chats};
use crate::Update;
use crate::models::ModelsError;
use crate::sampling::{
    SamplingDraft, SamplingRuleShown, bound_model, drafted_request, drafting_model, without_review,
};

impl From<DraftError> for ChatError {
    fn from(e: DraftError) -> Self {
        match e {
            DraftError::Provider(e) => Self::Provider(e),
            other => Self::BadRequest(other.to_string()),
        }
    }
}

impl Chats {
    /// The model's reply to the pending sampling request `id` of `server`, streamed from
    /// the provider (each piece told to the window as it comes: [`Update::SamplingDraft`];
    /// [`Self::stop_sampling_draft`] ends it) and returned whole; `None` when no model is configured (the person
    /// writes the reply). `reviewed` is the request as the person approved it (they may
    /// have edited its messages and settings); `None` drafts the request as the server
    /// sent it. The reply may take what the request asks within
    /// `settings.samplingLimits.maxTokens`, unless the person changed the limit in their
    /// review: theirs goes. The request stays pending: the person sends the reply, edited
    /// or not, with the trust service's `answer_sampling`.
    pub async fn draft_sampling(
        &self,
        id: u64,
        server: &str,
        reviewed: Option<serde_json::Value>,
    ) -> Result<Option<SamplingDraft>, ChatError> {
        let pending = self
            .gate
            .broker()
            .pending()
            .into_iter()
            .find(|p| p.id == id)
            .ok_or(AnswerError::NotPending(id))?;
        if pending.server != server {
            return Err(AnswerError::WrongOwner {
                id,
                owner: pending.server,
                claimed: server.to_owned(),
            }
            .into());
        }
        let Question::Sampling { params } = pending.question else {
            return Err(AnswerError::WrongKind(id).into());
        };
        let config = self.host.config();
        let (params, max_tokens) =
            drafted_request(params, reviewed, &config.settings.sampling_limits)
                .map_err(ChatError::BadRequest)?;
        let Some(chosen) = drafting_model(&params, &config) else {
            return Ok(None);
        };
        let stop = CancellationToken::new();
        self.state.drafts.lock().insert(id, stop.clone());
        let mut told = |text: &str| {
            self.host.announce(Update::SamplingDraft {
                id,
                text: text.to_owned(),
            });
        };
        let drafted = tokio::select! {
            drafted = self.draft_reply(&params, chosen, max_tokens, &mut told) => drafted,
            () = stop.cancelled() => Err(ChatError::DraftStopped),
        };
        self.state.drafts.lock().remove(&id);
        let drafted = drafted?;
        Ok(Some(SamplingDraft {
            provider: drafted.provider,
            model: drafted.model,
            result: serde_json::to_value(&drafted.result)
                .map_err(|e| ChatError::BadRequest(e.to_string()))?,
        }))
    }

    /// Stops the draft of the reply to the pending sampling request `id`: the request stays
    /// pending, for the person to write or finish the reply. Whether a draft was going on.
    pub fn stop_sampling_draft(&self, id: u64) -> bool {
        let stop = self.state.drafts.lock().get(&id).cloned();
        stop.map(|stop| stop.cancel()).is_some()
    }

    /// Asks `chosen` for the reply, which may take `max_tokens`; its text goes to
    /// `on_text` as it comes.
    async fn draft_reply(
        &self,
        params: &CreateMessageRequestParams,
        chosen: Chosen,
        max_tokens: u32,
        on_text: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Drafted, ChatError> {
        let request = drafts::provider_request(params, &chosen.model, max_tokens)?;
        let client = self.models.provider_client(&chosen.provider).await?;
        let drafted = drafts::draft(&client, &request, on_text).await;
        self.models.keep_learned(&chosen.provider, &client).await;
        let response = drafted?;
        let tokens = response
            .usage
            .as_ref()
            .map(|u| u.input_tokens.saturating_add(u.output_tokens));
        let result = drafts::result_of(response, &chosen.model, &drafts::tool_names(params))?;
        Ok(Drafted {
            provider: chosen.provider,
            model: chosen.model,
            result,
            tokens,
        })
    }

    /// Lets `model` of `provider` (the one that drafted the reply the person reviewed)
    /// answer `server`'s sampling requests without review, whatever the server hints, for
    /// the server as it is launched now; kept in the configuration file.
    pub async fn allow_sampling_without_review(
        &self,
        server: &str,
        provider: &str,
        model: &str,
    ) -> Result<(), ChatError> {
        let identity = self
            .host
            .server(server)
            .ok_or_else(|| ChatError::NoServer(server.to_owned()))?
            .identity();
        let chosen = Chosen {
            provider: provider.to_owned(),
            model: model.to_owned(),
        };
        let rule = SamplingRule {
            server: server.to_owned(),
            identity,
            since_ms: now_ms() as u64,
            provider: Some(chosen.provider.clone()),
            model: Some(chosen.model.clone()),
        };
        self.host
            .edit(Box::new(move |config| {
                if !config.providers.contains_key(&chosen.provider) {
                    return Err(ModelsError::NoProvider(chosen.provider).into());
                }
                if !is_configured(&chosen, config) {
                    return Err(ChatError::NoSuchModel(chosen.clone()));
                }
                let rules = &mut config.settings.sampling_rules;
                rules.retain(|r| r.server != rule.server);
                rules.push(rule);
                Ok(())
            }))
            .await
    }

    /// Takes back the permission: `server`'s requests are reviewed again.
    pub async fn revoke_sampling_rule(&self, server: &str) -> Result<(), ChatError> {
        let server = server.to_owned();
        self.host
            .edit(Box::new(move |config| {
                config
                    .settings
                    .sampling_rules
                    .retain(|r| r.server != server);
                Ok(())
            }))
            .await
    }

    /// Every server allowed to be answered without review.
    pub async fn sampling_rules(&self) -> Vec<SamplingRuleShown> {
        let config = self.host.config();
        let mut shown = Vec::new();
        for rule in &config.settings.sampling_rules {
            let uses = ByRule {
                server: rule.server.clone(),
                subject: Some("sampling/createMessage".into()),
                decided_by: DecidedBy::SamplingWithoutReview,
                since_ms: rule.since_ms as i64,
            };
            let uses = self.gate.audit().count_decided(uses).await;
            shown.push(SamplingRuleShown {
                server: rule.server.clone(),
                since_ms: rule.since_ms,
                uses: uses.unwrap_or(0),
                provider: rule.provider.clone(),
                model: rule.model.clone(),
                holds: bound_model(&config, &rule.server).is_some_and(|m| m.is_ok()),
            });
        }
        shown
    }
}

/// The chat's models, as each server's request handler asks them, and what each server's
/// replies without review spent.
impl SamplingModels for Chats {
    fn without_review(&self, server: &str, params: &CreateMessageRequestParams) -> Unreviewed {
        without_review(&self.host.config(), &self.state.budgets, server, params)
    }

    fn draft<'a>(
        &'a self,
        params: &'a CreateMessageRequestParams,
        chosen: &'a Chosen,
        max_tokens: u32,
    ) -> Pin<Box<dyn Future<Output = Result<Drafted, NotDrafted>> + Send + 'a>> {
        Box::pin(async move {
            self.draft_reply(params, chosen.clone(), max_tokens, &mut |_| {})
                .await
                .map_err(|e| NotDrafted(e.to_string()))
        })
    }
}

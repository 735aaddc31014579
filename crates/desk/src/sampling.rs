//! Sampling answered by a model: the draft of a pending request's reply, for the person to
//! review and edit, and the servers the person allowed to be answered without review.

use std::pin::Pin;
use std::sync::Weak;

use serde::Serialize;
use switchboard_mcp::types::CreateMessageRequestParams;

use crate::models::ModelsError;
use crate::{Desk, DeskError, Inner};
use switchboard_chat::drafts::{self, DraftError};
use switchboard_core::approvals::{AnswerError, Question};
use switchboard_core::audit::ByRule;
use switchboard_core::clock::now_ms;
use switchboard_core::config::Config;
use switchboard_core::sampling::budget::Budgets;
use switchboard_core::sampling::{
    Chosen, Drafted, NotDrafted, SamplingModels, Unreviewed, choose_model, is_configured,
};

use switchboard_core::config::SamplingRule;

use switchboard_core::decisions::DecidedBy;

/// A reply the model drafted, for the person to review and edit before it goes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SamplingDraft {
    /// The provider asked, as configured.
    pub provider: String,
    /// The model chosen for the request.
    pub model: String,
    /// The `CreateMessageResult` the model's answer makes.
    #[cfg_attr(feature = "specta", specta(type = switchboard_core::json::mcp::CreateMessageResult))]
    pub result: serde_json::Value,
}

/// A server whose sampling requests the model answers without review, as the person
/// reviews the permission.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SamplingRuleShown {
    pub server: String,
    pub since_ms: u64,
    /// How many replies went without review since it was given.
    pub uses: u64,
    /// The provider and model that write the replies, as the person chose them; none for
    /// a permission an earlier version kept, which answers nothing until given again.
    pub provider: Option<String>,
    pub model: Option<String>,
    /// False once the server is launched otherwise than when the person allowed it, or
    /// the model is no longer configured (or none was chosen): its requests are reviewed.
    pub holds: bool,
}

impl From<DraftError> for DeskError {
    fn from(e: DraftError) -> Self {
        match e {
            DraftError::Provider(e) => Self::Provider(e),
            other => Self::BadAnswer(other.to_string()),
        }
    }
}

impl Desk {
    /// The model's reply to the pending sampling request `id` of `server`, streamed from
    /// the provider and returned whole; `None` when no model is configured (the person
    /// writes the reply). `reviewed` is the request as the person approved it (they may
    /// have edited its messages and settings); `None` drafts the request as the server
    /// sent it. The reply may take what the request asks within
    /// `settings.samplingLimits.maxTokens`, unless the person changed the limit in their
    /// review: theirs goes. The request stays pending: the person sends the reply, edited
    /// or not, with [`Self::answer_sampling`].
    pub async fn draft_sampling(
        &self,
        id: u64,
        server: &str,
        reviewed: Option<serde_json::Value>,
    ) -> Result<Option<SamplingDraft>, DeskError> {
        let pending = self
            .inner
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
        let config = self.config();
        let limits = config.settings.sampling_limits;
        let (params, max_tokens) = match reviewed {
            Some(reviewed) => {
                let reviewed: CreateMessageRequestParams = serde_json::from_value(reviewed)
                    .map_err(|e| DeskError::BadAnswer(format!("the reviewed request: {e}")))?;
                let max_tokens = if reviewed.max_tokens == params.max_tokens {
                    limits.max_tokens_for(reviewed.max_tokens)
                } else {
                    u32::try_from(reviewed.max_tokens).unwrap_or(u32::MAX)
                };
                (reviewed, max_tokens)
            }
            None => {
                let max_tokens = limits.max_tokens_for(params.max_tokens);
                (*params, max_tokens)
            }
        };
        let Some(chosen) = choose_model(params.model_preferences.as_ref(), &config) else {
            return Ok(None);
        };
        let drafted = self.draft_reply(&params, chosen, max_tokens).await?;
        Ok(Some(SamplingDraft {
            provider: drafted.provider,
            model: drafted.model,
            result: serde_json::to_value(&drafted.result)
                .map_err(|e| DeskError::BadAnswer(e.to_string()))?,
        }))
    }

    /// Asks `chosen` for the reply, which may take `max_tokens`.
    async fn draft_reply(
        &self,
        params: &CreateMessageRequestParams,
        chosen: Chosen,
        max_tokens: u32,
    ) -> Result<Drafted, DeskError> {
        let request = drafts::provider_request(params, &chosen.model, max_tokens)?;
        let client = self.inner.models.provider_client(&chosen.provider).await?;
        let response = drafts::draft(&client, &request, &mut |_| {}).await?;
        let tokens = response
            .usage
            .as_ref()
            .map(|u| u.input_tokens.saturating_add(u.output_tokens));
        let result = drafts::result_of(response, &chosen.model)?;
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
    ) -> Result<(), DeskError> {
        let identity = self.server_config(server)?.identity();
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
        self.edit_config(move |config| {
            if !config.providers.contains_key(&chosen.provider) {
                return Err(ModelsError::NoProvider(chosen.provider).into());
            }
            if !is_configured(&chosen, config) {
                return Err(DeskError::NoSuchModel(chosen.clone()));
            }
            let rules = &mut config.settings.sampling_rules;
            rules.retain(|r| r.server != rule.server);
            rules.push(rule);
            Ok(())
        })
        .await
    }

    /// Takes back the permission: `server`'s requests are reviewed again.
    pub async fn revoke_sampling_rule(&self, server: &str) -> Result<(), DeskError> {
        let server = server.to_owned();
        self.edit_config(move |config| {
            config
                .settings
                .sampling_rules
                .retain(|r| r.server != server);
            Ok(())
        })
        .await
    }

    /// Every server allowed to be answered without review.
    pub async fn sampling_rules(&self) -> Vec<SamplingRuleShown> {
        let config = self.config();
        let mut shown = Vec::new();
        for rule in &config.settings.sampling_rules {
            let uses = ByRule {
                server: rule.server.clone(),
                subject: Some("sampling/createMessage".into()),
                decided_by: DecidedBy::SamplingWithoutReview,
                since_ms: rule.since_ms as i64,
            };
            let uses = self.inner.gate.audit().count_decided(uses).await;
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

/// The model a rule binds `server`'s replies without review to, if a rule holds for the
/// server as configured; why it cannot answer, if its model is not one there is.
fn bound_model(config: &Config, server: &str) -> Option<Result<Chosen, String>> {
    let now = config
        .servers
        .get(server)
        .map(switchboard_core::config::ServerConfig::identity)?;
    let rule = config
        .settings
        .sampling_rules
        .iter()
        .find(|r| r.server == server && r.identity == now)?;
    Some(match rule.chosen() {
        None => Err(
            "the permission to reply without review names no model (an earlier \
                     version kept it): allow it again under a reply you review"
                .to_owned(),
        ),
        Some(chosen) if !is_configured(&chosen, config) => Err(format!(
            "the model chosen for replies without review, {} of {}, is no longer configured",
            chosen.model, chosen.provider
        )),
        Some(chosen) => Ok(chosen),
    })
}

/// The desk's models, as each server's person handler asks them, and what each server's
/// replies without review spent.
pub(super) struct DeskModels {
    pub(super) desk: Weak<Inner>,
    pub(super) budgets: Budgets,
}

impl DeskModels {
    fn desk(&self) -> Option<Desk> {
        self.desk.upgrade().map(|inner| Desk { inner })
    }
}

impl SamplingModels for DeskModels {
    fn without_review(&self, server: &str, params: &CreateMessageRequestParams) -> Unreviewed {
        let Some(desk) = self.desk() else {
            return Unreviewed::NoRule;
        };
        let config = desk.config();
        let chosen = match bound_model(&config, server) {
            None => return Unreviewed::NoRule,
            Some(Err(why)) => return Unreviewed::Asked(why),
            Some(Ok(chosen)) => chosen,
        };
        let limits = &config.settings.sampling_limits;
        let max_tokens = limits.max_tokens_for(params.max_tokens);
        match self.budgets.admit(server, limits, max_tokens) {
            Ok(permit) => Unreviewed::Allowed {
                chosen,
                max_tokens,
                permit,
            },
            Err(over) => Unreviewed::Asked(over.to_string()),
        }
    }

    fn draft<'a>(
        &'a self,
        params: &'a CreateMessageRequestParams,
        chosen: &'a Chosen,
        max_tokens: u32,
    ) -> Pin<Box<dyn Future<Output = Result<Drafted, NotDrafted>> + Send + 'a>> {
        Box::pin(async move {
            let Some(desk) = self.desk() else {
                return Err(NotDrafted("the app is closing".to_owned()));
            };
            desk.draft_reply(params, chosen.clone(), max_tokens)
                .await
                .map_err(|e| NotDrafted(e.to_string()))
        })
    }
}

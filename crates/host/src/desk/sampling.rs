//! Sampling answered by a model: the draft of a pending request's reply, for the person to
//! review and edit, and the servers the person allowed to be answered without review.

use std::pin::Pin;
use std::sync::Weak;

use serde::Serialize;
use switchboard_mcp::types::CreateMessageRequestParams;

use super::{Desk, DeskError, Inner, now_ms};
use crate::approvals::{AnswerError, Question};
use crate::audit::ByRule;
use crate::pins;
use crate::sampling::{
    self, DraftError, Drafted, SamplingModels, SamplingRule, WITHOUT_REVIEW, choose_model,
};

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
    #[cfg_attr(feature = "specta", specta(type = crate::desk::Json))]
    pub result: serde_json::Value,
}

/// A server whose sampling requests the model answers without review, as the person
/// reviews the permission.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SamplingRuleShown {
    pub server: String,
    pub since_ms: f64,
    /// How many replies went without review since it was given.
    pub uses: f64,
    /// False once the server is launched otherwise than when the person allowed it: its
    /// requests are reviewed again.
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
    /// sent it. The request stays pending: the person sends the reply, edited or not, with
    /// [`Self::answer_sampling`].
    pub async fn draft_sampling(
        &self,
        id: u64,
        server: &str,
        reviewed: Option<serde_json::Value>,
    ) -> Result<Option<SamplingDraft>, DeskError> {
        let pending = self
            .inner
            .gate
            .broker
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
        let params = match reviewed {
            Some(reviewed) => serde_json::from_value(reviewed)
                .map_err(|e| DeskError::BadAnswer(format!("the reviewed request: {e}")))?,
            None => *params,
        };
        let Some(drafted) = self.draft_reply(&params).await? else {
            return Ok(None);
        };
        Ok(Some(SamplingDraft {
            provider: drafted.provider,
            model: drafted.model,
            result: serde_json::to_value(&drafted.result)
                .map_err(|e| DeskError::BadAnswer(e.to_string()))?,
        }))
    }

    /// Asks the model the configuration chooses for these parameters; `None` with none.
    async fn draft_reply(
        &self,
        params: &CreateMessageRequestParams,
    ) -> Result<Option<Drafted>, DeskError> {
        let config = self.config();
        let Some(chosen) = choose_model(params.model_preferences.as_ref(), &config) else {
            return Ok(None);
        };
        let request = sampling::provider_request(params, &chosen.model)?;
        let client = self.provider_client(&chosen.provider).await?;
        let response = sampling::draft(&client, &request, &mut |_| {}).await?;
        let result = sampling::result_of(response, &chosen.model)?;
        Ok(Some(Drafted {
            provider: chosen.provider,
            model: chosen.model,
            result,
        }))
    }

    /// Lets the model answer `server`'s sampling requests without review, for the server
    /// as it is launched now; kept in the configuration file.
    pub async fn allow_sampling_without_review(&self, server: &str) -> Result<(), DeskError> {
        let identity = pins::identity(&self.server_config(server)?);
        let rule = SamplingRule {
            server: server.to_owned(),
            identity,
            since_ms: now_ms() as u64,
        };
        self.edit_config(|config| {
            let rules = &mut config.settings.sampling_rules;
            rules.retain(|r| r.server != rule.server);
            rules.push(rule);
            Ok(())
        })
        .await
    }

    /// Takes back the permission: `server`'s requests are reviewed again.
    pub async fn revoke_sampling_rule(&self, server: &str) -> Result<(), DeskError> {
        self.edit_config(|config| {
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
                decided_by: WITHOUT_REVIEW.into(),
                since_ms: rule.since_ms as i64,
            };
            let uses = self.inner.gate.audit.count_decided(uses).await;
            shown.push(SamplingRuleShown {
                server: rule.server.clone(),
                since_ms: rule.since_ms as f64,
                uses: uses.unwrap_or(0) as f64,
                holds: holds(&config, &rule.server),
            });
        }
        shown
    }
}

/// Whether a rule lets `server` be answered without review, for the server as configured.
fn holds(config: &crate::config::Config, server: &str) -> bool {
    let Some(now) = config.servers.get(server).map(pins::identity) else {
        return false;
    };
    config
        .settings
        .sampling_rules
        .iter()
        .any(|r| r.server == server && r.identity == now)
}

/// The desk's models, as each server's person handler asks them.
pub(super) struct DeskModels(pub(super) Weak<Inner>);

impl DeskModels {
    fn desk(&self) -> Option<Desk> {
        self.0.upgrade().map(|inner| Desk { inner })
    }
}

impl SamplingModels for DeskModels {
    fn without_review(&self, server: &str) -> bool {
        self.desk()
            .is_some_and(|desk| holds(&desk.config(), server))
    }

    fn draft<'a>(
        &'a self,
        params: &'a CreateMessageRequestParams,
    ) -> Pin<Box<dyn Future<Output = Result<Option<Drafted>, DraftError>> + Send + 'a>> {
        Box::pin(async move {
            let Some(desk) = self.desk() else {
                return Ok(None);
            };
            desk.draft_reply(params).await.map_err(|e| match e {
                DeskError::Provider(e) => DraftError::Provider(e),
                other => DraftError::Unsupported(other.to_string()),
            })
        })
    }
}

//! Sampling answered by a model, as the chat service shows and decides it: the draft of a
//! pending request's reply for the person to review and edit, the servers the person
//! allowed to be answered without review, and whether a request goes without review now.

use serde::Serialize;
use switchboard_core::config::{Config, SamplingLimits};
use switchboard_core::sampling::budget::Budgets;
use switchboard_core::sampling::{self, Chosen, Unreviewed, is_configured};
use switchboard_mcp::types::CreateMessageRequestParams;

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

/// The model a rule binds `server`'s replies without review to, if a rule holds for the
/// server as configured; why it cannot answer, if its model is not one there is.
pub(crate) fn bound_model(config: &Config, server: &str) -> Option<Result<Chosen, String>> {
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

/// Whether `server`'s request goes without review now, by the model the person chose, and
/// within what its budget leaves it: the rule must hold for the server as configured in
/// `config`, name a model still configured, and the server must have budget left.
pub(crate) fn without_review(
    config: &Config,
    budgets: &Budgets,
    server: &str,
    params: &CreateMessageRequestParams,
) -> Unreviewed {
    let chosen = match bound_model(config, server) {
        None => return Unreviewed::NoRule,
        Some(Err(why)) => return Unreviewed::Asked(why),
        Some(Ok(chosen)) => chosen,
    };
    let limits = &config.settings.sampling_limits;
    let max_tokens = limits.max_tokens_for(params.max_tokens);
    match budgets.admit(server, limits, max_tokens) {
        Ok(permit) => Unreviewed::Allowed {
            chosen,
            max_tokens,
            permit,
        },
        Err(over) => Unreviewed::Asked(over.to_string()),
    }
}

/// The request a draft answers, and the tokens its reply may take: `reviewed`, the request
/// as the person approved it (they may have edited its messages and settings), else
/// `params` as the server sent it. The reply may take what the request asks within the
/// limits' `maxTokens`, unless the person changed the number in their review: theirs goes.
/// Why the reviewed request does not read, if it does not.
pub(crate) fn drafted_request(
    params: Box<CreateMessageRequestParams>,
    reviewed: Option<serde_json::Value>,
    limits: &SamplingLimits,
) -> Result<(CreateMessageRequestParams, u32), String> {
    Ok(match reviewed {
        Some(reviewed) => {
            let reviewed: CreateMessageRequestParams = serde_json::from_value(reviewed)
                .map_err(|e| format!("the reviewed request: {e}"))?;
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
    })
}

/// The model that drafts the reply to a request of these preferences: the host decides
/// (see [`sampling::choose_model`]); none when no model is configured.
pub(crate) fn drafting_model(
    params: &CreateMessageRequestParams,
    config: &Config,
) -> Option<Chosen> {
    sampling::choose_model(params.model_preferences.as_ref(), config)
}

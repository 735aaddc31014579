//! Sampling answered by a model: the draft the person reviews, and the servers allowed to
//! be answered without review.

use switchboard_core::json::{Mcp, mcp};
use switchboard_desk::{Desk, SamplingDraft, SamplingRuleShown};
use tauri::State;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

/// The model's draft of the reply to sampling request `id`, from `reviewed` (the request
/// as the person approved it), its text told as `host-update`s as it comes; null when no
/// model provider is configured.
#[tauri::command]
#[specta::specta]
pub async fn draft_sampling(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    reviewed: Mcp<mcp::CreateMessageRequestParams>,
) -> Result<Option<SamplingDraft>> {
    Ok(desk
        .chats()
        .draft_sampling(id.into(), &server, Some(reviewed.json))
        .await?)
}

/// Stops the draft of the reply to sampling request `id`; the request stays pending.
#[tauri::command]
#[specta::specta]
pub fn stop_sampling_draft(desk: State<'_, Desk>, id: u32) -> bool {
    desk.chats().stop_sampling_draft(id.into())
}

/// From now on `model` of `provider` (the one whose draft the person reviewed) answers
/// `server`'s sampling requests without asking, within the server's budget.
#[tauri::command]
#[specta::specta]
pub async fn allow_sampling_without_review(
    desk: State<'_, Desk>,
    server: String,
    provider: String,
    model: String,
) -> Result<()> {
    Ok(desk
        .chats()
        .allow_sampling_without_review(&server, &provider, &model)
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn revoke_sampling_rule(desk: State<'_, Desk>, server: String) -> Result<()> {
    Ok(desk.chats().revoke_sampling_rule(&server).await?)
}

/// The servers whose sampling requests go without review.
#[tauri::command]
#[specta::specta]
pub async fn sampling_rules(desk: State<'_, Desk>) -> Result<Vec<SamplingRuleShown>> {
    Ok(desk.chats().sampling_rules().await)
}

//! Answers to what servers ask, the native folder picker, the audit trail, and the
//! standing rules and shared folders for review.

use std::path::PathBuf;

use switchboard_core::approvals::{Pending, Remember};
use switchboard_core::json::{Json, Mcp, mcp};
use switchboard_desk::{AuditEntry, Desk, SharedFolders, StandingRule};
use tauri::State;
use tauri_plugin_dialog::DialogExt;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

#[tauri::command]
#[specta::specta]
pub fn pending_approvals(desk: State<'_, Desk>) -> Vec<Pending> {
    desk.trust().pending()
}

#[tauri::command]
#[specta::specta]
pub fn answer_tool_call(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    allow: bool,
    args: Json,
    remember: Remember,
) -> Result<()> {
    Ok(desk
        .trust()
        .answer_tool_call(id.into(), &server, allow, args.into_object(), remember)?)
}

/// Lets an agent read what it asked to, or not; `remember` reaches its reads of the server.
#[tauri::command]
#[specta::specta]
pub fn answer_read(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    allow: bool,
    remember: Remember,
) -> Result<()> {
    Ok(desk
        .trust()
        .answer_read(id.into(), &server, allow, remember)?)
}

/// `reply` is the CreateMessageResult to return, or null to decline.
#[tauri::command]
#[specta::specta]
pub fn answer_sampling(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    reply: Option<Mcp<mcp::CreateMessageResult>>,
) -> Result<()> {
    Ok(desk
        .trust()
        .answer_sampling(id.into(), &server, reply.map(|r| r.json))?)
}

/// `result` is the ElicitResult. An accepted link is opened in the system browser.
#[tauri::command]
#[specta::specta]
pub fn answer_elicitation(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    result: Mcp<mcp::ElicitResult>,
) -> Result<()> {
    if let Some(url) = desk
        .trust()
        .answer_elicitation(id.into(), &server, result.json)?
    {
        crate::browser::open(&url)?;
    }
    Ok(())
}

/// Answers a sign-in the person asked for; on "Sign in" its page opens in the system
/// browser.
#[tauri::command]
#[specta::specta]
pub async fn answer_sign_in(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    sign_in: bool,
) -> Result<()> {
    if let Some(url) = desk
        .servers()
        .answer_sign_in(id.into(), &server, sign_in)
        .await?
    {
        crate::browser::open(&url)?;
    }
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn answer_roots(
    desk: State<'_, Desk>,
    id: u32,
    server: String,
    folders: Vec<String>,
) -> Result<()> {
    let folders: Vec<PathBuf> = folders.into_iter().map(PathBuf::from).collect();
    Ok(desk
        .trust()
        .answer_roots(id.into(), &server, &folders)
        .await?)
}

/// The folders of an agent's offer the servers it uses may see (none is an answer too).
#[tauri::command]
#[specta::specta]
pub fn answer_agent_roots(
    desk: State<'_, Desk>,
    id: u32,
    agent: String,
    folders: Vec<String>,
) -> Result<()> {
    let folders: Vec<PathBuf> = folders.into_iter().map(PathBuf::from).collect();
    Ok(desk
        .trust()
        .answer_agent_roots(id.into(), &agent, &folders)?)
}

/// The system's folder picker; null when the person closed it.
#[tauri::command]
#[specta::specta]
pub async fn pick_folder(app: tauri::AppHandle) -> Option<String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog().file().pick_folder(move |folder| {
        let _ = tx.send(folder.and_then(|f| f.into_path().ok()));
    });
    rx.await.ok().flatten().map(|p| p.display().to_string())
}

/// A page of the audit trail, newest first; `before` is the id to continue from, and
/// `search` (if not empty) a text each record shown holds.
#[tauri::command]
#[specta::specta]
pub async fn audit(
    desk: State<'_, Desk>,
    search: String,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<AuditEntry>> {
    Ok(desk.activity().search(&search, before, limit).await?)
}

/// Every rule the person made, for review: scope, since when, uses, whether it still holds.
#[tauri::command]
#[specta::specta]
pub async fn standing_rules(desk: State<'_, Desk>) -> Result<Vec<StandingRule>> {
    Ok(desk.trust().standing_rules().await)
}

/// Forgets a rule (`tool` null: the one for the whole server; `reads`: the one for an
/// agent's reads of it), at once.
#[tauri::command]
#[specta::specta]
pub async fn revoke_rule(
    desk: State<'_, Desk>,
    server: String,
    tool: Option<String>,
    reads: bool,
    agent: Option<String>,
) -> Result<()> {
    desk.trust()
        .revoke_rule(&server, tool.as_deref(), reads, agent.as_deref())
        .await;
    Ok(())
}

/// Whether the person's own calls of tools that may destroy are confirmed first.
#[tauri::command]
#[specta::specta]
pub fn confirms_own_destructive_calls(desk: State<'_, Desk>) -> bool {
    desk.servers().confirms_own_destructive_calls()
}

#[tauri::command]
#[specta::specta]
pub async fn set_confirm_own_destructive_calls(desk: State<'_, Desk>, on: bool) -> Result<()> {
    Ok(desk.servers().set_confirm_own_destructive_calls(on).await?)
}

/// The folders each server may see.
#[tauri::command]
#[specta::specta]
pub fn shared_folders(desk: State<'_, Desk>) -> Vec<SharedFolders> {
    desk.trust().shared_folders()
}

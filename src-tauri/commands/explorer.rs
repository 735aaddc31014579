//! The explorer: the catalog, tool calls, resources, prompts and completion. MCP payloads
//! travel as the engine wrote them, described by the MCP schema's types.

use switchboard_core::json::{Json, Mcp, mcp};
use switchboard_desk::explorer::{SkillLoaded, SkillSummary};
use switchboard_desk::tasks::TaskEntry;
use switchboard_desk::{Desk, Offers, OpenedView, ProgressItem};
use tauri::State;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

/// Every running server's offer: `{ [server]: { tools, resources, templates, prompts } }`.
#[tauri::command]
#[specta::specta]
pub fn catalog(desk: State<'_, Desk>) -> Offers {
    desk.explorer().catalog()
}

/// Calls a tool through the approval gate; resolves with the CallToolResult. A tool that
/// may run as a task runs as one when `asTask`.
#[tauri::command]
#[specta::specta]
pub async fn call_tool(
    desk: State<'_, Desk>,
    server: String,
    tool: String,
    args: Json,
    token: String,
    as_task: bool,
) -> Result<Mcp<mcp::CallToolResult>> {
    Ok(desk
        .explorer()
        .call_tool(&server, &tool, args.into_object(), token, as_task)
        .await?
        .into())
}

#[tauri::command]
#[specta::specta]
pub fn cancel_call(desk: State<'_, Desk>, token: String) -> bool {
    desk.explorer().cancel(&token)
}

/// The calls under way, oldest first: the list the activity view starts from.
#[tauri::command]
#[specta::specta]
pub fn calls_in_flight(desk: State<'_, Desk>) -> Vec<ProgressItem> {
    desk.explorer().calls_in_flight()
}

/// Calls a tool of `server` for its view (MCP Apps), through the gate as the app's;
/// resolves with the CallToolResult.
#[tauri::command]
#[specta::specta]
pub async fn call_for_view(
    desk: State<'_, Desk>,
    server: String,
    tool: String,
    args: Json,
    token: String,
) -> Result<Mcp<mcp::CallToolResult>> {
    Ok(desk
        .explorer()
        .call_for_view(&server, &tool, args.into_object(), token)
        .await?
        .into())
}

/// Opens a tool's view (MCP Apps) for the window: read, checked, and served on its
/// server's own origin; where to load it from and the policy it is served with. A view
/// changed since it was last shown is not served until the person agrees to the one whose
/// hash is `agreed`; meanwhile what changed is returned.
#[tauri::command]
#[specta::specta]
pub async fn open_view(
    desk: State<'_, Desk>,
    server: String,
    uri: String,
    agreed: Option<String>,
) -> Result<OpenedView> {
    Ok(desk
        .explorer()
        .open_view(&server, &uri, agreed.as_deref())
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn read_resource(
    desk: State<'_, Desk>,
    server: String,
    uri: String,
) -> Result<Mcp<mcp::ReadResourceResult>> {
    Ok(desk.explorer().read_resource(&server, &uri).await?.into())
}

/// The skills a server lists, by name (no file of theirs read).
#[tauri::command]
#[specta::specta]
pub fn skills(desk: State<'_, Desk>, server: String) -> Result<Vec<SkillSummary>> {
    Ok(desk.explorer().skills(&server)?)
}

/// Loads a skill for the person, each file checked against its manifest.
#[tauri::command]
#[specta::specta]
pub async fn load_skill(desk: State<'_, Desk>, server: String, uri: String) -> Result<SkillLoaded> {
    Ok(desk.explorer().load_skill(&server, &uri).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn subscribe_resource(
    desk: State<'_, Desk>,
    server: String,
    uri: String,
    on: bool,
) -> Result<()> {
    Ok(desk.explorer().subscribe(&server, &uri, on).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn get_prompt(
    desk: State<'_, Desk>,
    server: String,
    name: String,
    args: Json,
) -> Result<Mcp<mcp::GetPromptResult>> {
    Ok(desk
        .explorer()
        .get_prompt(&server, &name, args.into_object())
        .await?
        .into())
}

/// `params` are `completion/complete` params as the spec writes them.
#[tauri::command]
#[specta::specta]
pub async fn complete(desk: State<'_, Desk>, server: String, params: Json) -> Result<Vec<String>> {
    Ok(desk.explorer().complete(&server, params.0).await?)
}

/// The latest tool calls run as tasks at their servers, the newest first.
#[tauri::command]
#[specta::specta]
pub async fn tasks(desk: State<'_, Desk>) -> Result<Vec<TaskEntry>> {
    Ok(desk.explorer().tasks().await?)
}

/// Asks the server of task `id` to cancel it; the task as it stands then.
#[tauri::command]
#[specta::specta]
pub async fn cancel_task(desk: State<'_, Desk>, id: i64) -> Result<TaskEntry> {
    Ok(desk.explorer().cancel_task(id).await?)
}

//! The agents that reach the person's servers through the gateway: listed, added,
//! removed, their recent calls, and the snippet for an agent's own configuration or the
//! change that adds Switchboard to it.

use switchboard_core::agent_setup::{AgentApp, SetupPlan};
use switchboard_core::config::{AgentAnswers, Offered};
use switchboard_desk::{AgentReach, AgentSummary, AuditEntry, Desk, GatewayStatus};
use tauri::State;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

#[tauri::command]
#[specta::specta]
pub fn agents(desk: State<'_, Desk>) -> Vec<AgentSummary> {
    desk.agents().list()
}

/// Adds an agent, or changes the servers it may use (`servers` null: all of them).
#[tauri::command]
#[specta::specta]
pub async fn save_agent(
    desk: State<'_, Desk>,
    name: String,
    servers: Option<Vec<String>>,
) -> Result<()> {
    Ok(desk.agents().save(&name, servers).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn remove_agent(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.agents().remove(&name).await?)
}

/// Ends the agent's sessions now; it may connect again.
#[tauri::command]
#[specta::specta]
pub async fn disconnect_agent(desk: State<'_, Desk>, name: String) -> Result<()> {
    desk.agents().disconnect(&name).await;
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn agent_calls(
    desk: State<'_, Desk>,
    name: String,
    limit: u32,
) -> Result<Vec<AuditEntry>> {
    Ok(desk.agents().calls(&name, limit).await?)
}

/// What the agent may answer in the person's stead when a server serving its call asks.
#[tauri::command]
#[specta::specta]
pub fn agent_answers(desk: State<'_, Desk>, name: String) -> Result<AgentAnswers> {
    Ok(desk.agents().answers(&name)?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_agent_answers(
    desk: State<'_, Desk>,
    name: String,
    answers: AgentAnswers,
) -> Result<()> {
    Ok(desk.agents().set_answers(&name, answers).await?)
}

#[tauri::command]
#[specta::specta]
pub fn agent_snippet(desk: State<'_, Desk>, name: String) -> String {
    desk.agents().snippet(&name)
}

/// The entry for an agent's configuration to reach Switchboard over Streamable HTTP, with
/// its token; none while the gateway does not listen over HTTP.
#[tauri::command]
#[specta::specta]
pub async fn agent_http_snippet(desk: State<'_, Desk>, name: String) -> Result<Option<String>> {
    Ok(desk.agents().http_snippet(&name).await?)
}

/// Where agents reach the gateway over HTTP, or why they cannot.
#[tauri::command]
#[specta::specta]
pub fn gateway_status(desk: State<'_, Desk>) -> GatewayStatus {
    desk.agents().gateway_status()
}

/// A new token for the agent: the one it has is refused from now on.
#[tauri::command]
#[specta::specta]
pub async fn renew_agent_token(desk: State<'_, Desk>, name: String) -> Result<()> {
    desk.agents().renew_token(&name).await?;
    Ok(())
}

/// The change that adds Switchboard, as the agent `name`, to `app`'s configuration file;
/// nothing is written yet.
#[tauri::command]
#[specta::specta]
pub async fn agent_setup_plan(
    desk: State<'_, Desk>,
    name: String,
    app: AgentApp,
) -> Result<SetupPlan> {
    Ok(desk.agents().setup_plan(app, &name).await?)
}

/// Writes the change the window showed, exactly as it showed it.
#[tauri::command]
#[specta::specta]
pub async fn agent_setup_apply(desk: State<'_, Desk>, plan: SetupPlan) -> Result<()> {
    Ok(desk.agents().setup_apply(&plan).await?)
}

/// Which servers and tools the agent may use, every configured server listed.
#[tauri::command]
#[specta::specta]
pub fn agent_reach(desk: State<'_, Desk>, name: String) -> Result<AgentReach> {
    Ok(desk.agents().reach(&name)?)
}

/// Turns a tool of a server on or off for this agent alone.
#[tauri::command]
#[specta::specta]
pub async fn set_agent_tool(
    desk: State<'_, Desk>,
    name: String,
    server: String,
    tool: String,
    on: bool,
) -> Result<()> {
    Ok(desk.agents().set_tool(&name, &server, &tool, on).await?)
}

/// Turns a server's resources or prompts on or off for this agent alone.
#[tauri::command]
#[specta::specta]
pub async fn set_agent_offered(
    desk: State<'_, Desk>,
    name: String,
    server: String,
    of: Offered,
    on: bool,
) -> Result<()> {
    Ok(desk.agents().set_offered(&name, &server, of, on).await?)
}

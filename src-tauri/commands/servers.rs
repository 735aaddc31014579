//! Servers: the list, their settings, logs, roots, and importing from other hosts.

use std::path::PathBuf;

use switchboard_core::config::SandboxSetting;
use switchboard_core::json::{Mcp, mcp};
use switchboard_core::traffic::TrafficLog;
use switchboard_desk::{
    Desk, ImportCandidate, ImportRequest, ImportSummary, LogEntry, SandboxView, ServerForm,
    ServerSummary, SignedIn, ToolSwitch,
};
use switchboard_mcp::types::LoggingLevel;
use tauri::State;
use tauri_plugin_dialog::DialogExt;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

#[tauri::command]
#[specta::specta]
pub fn servers(desk: State<'_, Desk>) -> Vec<ServerSummary> {
    desk.servers().list()
}

#[tauri::command]
#[specta::specta]
pub fn server_form(desk: State<'_, Desk>, name: String) -> Result<ServerForm> {
    Ok(desk.servers().server_form(&name)?)
}

/// Adds a server (`original` null) or changes one, renaming it if the name changed.
#[tauri::command]
#[specta::specta]
pub async fn save_server(
    desk: State<'_, Desk>,
    original: Option<String>,
    form: ServerForm,
) -> Result<()> {
    Ok(desk.servers().save_server(original, form).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn remove_server(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.servers().remove_server(&name).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_server_enabled(desk: State<'_, Desk>, name: String, enabled: bool) -> Result<()> {
    Ok(desk.servers().set_enabled(&name, enabled).await?)
}

/// Every tool of the server, each with whether it is turned on.
#[tauri::command]
#[specta::specta]
pub fn server_tools(desk: State<'_, Desk>, name: String) -> Result<Vec<ToolSwitch>> {
    Ok(desk.servers().server_tools(&name)?)
}

/// Turns one tool of a server on or off, kept in the configuration; no restart.
#[tauri::command]
#[specta::specta]
pub async fn set_tool_enabled(
    desk: State<'_, Desk>,
    server: String,
    tool: String,
    on: bool,
) -> Result<()> {
    Ok(desk.servers().set_tool_enabled(&server, &tool, on).await?)
}

/// What a local server would see in the sandbox now.
#[tauri::command]
#[specta::specta]
pub async fn sandbox_view(desk: State<'_, Desk>, name: String) -> Result<SandboxView> {
    Ok(desk.servers().sandbox_view(&name).await?)
}

/// Runs a local server in the sandbox as `sandbox` says, or out of it (`null`); it starts
/// again so.
#[tauri::command]
#[specta::specta]
pub async fn set_sandbox(
    desk: State<'_, Desk>,
    name: String,
    sandbox: Option<SandboxSetting>,
) -> Result<()> {
    Ok(desk.servers().set_sandbox(&name, sandbox).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn restart_server(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.servers().restart(&name).await?)
}

/// Signs in to the server: the person is asked first (see `answer_sign_in`); returns once
/// the server runs signed in, or with why it does not.
#[tauri::command]
#[specta::specta]
pub async fn sign_in(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.servers().sign_in(&name).await?)
}

/// Cancels the sign-in to the server that waits for the browser.
#[tauri::command]
#[specta::specta]
pub async fn cancel_sign_in(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.servers().cancel_sign_in(&name)?)
}

/// Whether a sign-in to the server waits for the person to finish it in the browser.
#[tauri::command]
#[specta::specta]
pub async fn sign_in_waiting(desk: State<'_, Desk>, name: String) -> Result<bool> {
    Ok(desk.servers().sign_in_waiting_for_browser(&name))
}

/// Forgets the server's tokens; it needs sign-in again.
#[tauri::command]
#[specta::specta]
pub async fn sign_out(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.servers().sign_out(&name).await?)
}

/// Reaches the server with a personal access token instead of signing in: kept in the
/// keyring and sent as `Authorization: Bearer <token>`; the server restarts with it.
#[tauri::command]
#[specta::specta]
pub async fn use_access_token(desk: State<'_, Desk>, name: String, token: String) -> Result<()> {
    Ok(desk.servers().use_access_token(&name, &token).await?)
}

/// Who the person is signed in as at the server, or null.
#[tauri::command]
#[specta::specta]
pub async fn signed_in(desk: State<'_, Desk>, name: String) -> Result<Option<SignedIn>> {
    Ok(desk.servers().signed_in(&name).await?)
}

/// The server's `initialize` result (MCP's InitializeResult), or null when not running.
#[tauri::command]
#[specta::specta]
pub fn server_info(desk: State<'_, Desk>, name: String) -> Option<Mcp<mcp::InitializeResult>> {
    desk.servers().server_info(&name).map(Mcp::from)
}

#[tauri::command]
#[specta::specta]
pub fn server_log(desk: State<'_, Desk>, name: String) -> Vec<LogEntry> {
    desk.servers().log_of(&name)
}

#[tauri::command]
#[specta::specta]
pub fn clear_server_log(desk: State<'_, Desk>, name: String) {
    desk.servers().clear_log(&name);
}

/// Every JSON-RPC message the server exchanged, as kept (secrets masked).
#[tauri::command]
#[specta::specta]
pub fn server_traffic(desk: State<'_, Desk>, name: String) -> TrafficLog {
    desk.servers().traffic_of(&name)
}

#[tauri::command]
#[specta::specta]
pub fn clear_server_traffic(desk: State<'_, Desk>, name: String) {
    desk.servers().clear_traffic(&name);
}

/// Asks the server to send log messages of `level` and above.
#[tauri::command]
#[specta::specta]
pub async fn set_log_level(desk: State<'_, Desk>, name: String, level: String) -> Result<()> {
    let level: LoggingLevel = serde_json::from_value(serde_json::Value::String(level.clone()))
        .map_err(|_| CommandError::invalid(format!("{level:?} is not a logging level")))?;
    Ok(desk.servers().set_log_level(&name, level).await?)
}

#[tauri::command]
#[specta::specta]
pub fn server_roots(desk: State<'_, Desk>, name: String) -> Vec<String> {
    desk.trust().roots_of(&name)
}

/// Whether `path` is a folder a server could be shown, checked as sharing it would be (it
/// exists and is a folder): nothing when it is, else why not.
#[tauri::command]
#[specta::specta]
pub fn check_folder(path: String) -> Option<switchboard_core::roots::Unusable> {
    switchboard_core::roots::roots_of(&[PathBuf::from(path)])
        .err()
        .map(|err| match err {
            switchboard_core::roots::RootError::Unusable { reason, .. } => reason,
        })
}

#[tauri::command]
#[specta::specta]
pub async fn set_server_roots(
    desk: State<'_, Desk>,
    name: String,
    folders: Vec<String>,
) -> Result<()> {
    let folders: Vec<PathBuf> = folders.into_iter().map(PathBuf::from).collect();
    Ok(desk.trust().set_roots(&name, &folders).await?)
}

/// Lets the server only read one of the folders shared with it, in its sandbox, or change
/// it again; a sandboxed server starts again to bind it so.
#[tauri::command]
#[specta::specta]
pub async fn set_folder_read_only(
    desk: State<'_, Desk>,
    name: String,
    folder: String,
    read_only: bool,
) -> Result<()> {
    Ok(desk
        .trust()
        .set_read_only(&name, std::path::Path::new(&folder), read_only)
        .await?)
}

/// Other hosts' configuration files found on this machine.
#[tauri::command]
#[specta::specta]
pub fn import_candidates(desk: State<'_, Desk>) -> Vec<ImportCandidate> {
    desk.servers().import_candidates()
}

/// What a given file of another host would bring in; `source` null: told by its content.
#[tauri::command]
#[specta::specta]
pub fn import_candidate(
    desk: State<'_, Desk>,
    source: Option<String>,
    path: String,
) -> Result<ImportCandidate> {
    Ok(desk
        .servers()
        .import_candidate(source.as_deref(), &PathBuf::from(path))?)
}

/// Adds the chosen servers of another host's file as the person settled them (the names,
/// the references they kept, their answers, the tokens moved to the keyring); returns
/// what was imported, renamed and skipped.
#[tauri::command]
#[specta::specta]
pub async fn import_servers(
    desk: State<'_, Desk>,
    request: ImportRequest,
) -> Result<ImportSummary> {
    Ok(desk.servers().import(&request).await?)
}

/// The system's file picker, for a JSON configuration file; null when the person closed it.
#[tauri::command]
#[specta::specta]
pub async fn pick_config_file(app: tauri::AppHandle) -> Option<String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter("JSON configuration", &["json", "jsonc"])
        .pick_file(move |file| {
            let _ = tx.send(file.and_then(|f| f.into_path().ok()));
        });
    rx.await.ok().flatten().map(|p| p.display().to_string())
}

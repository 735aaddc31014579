use serde::Serialize;

use crate::CommandError;

/// What the window shows about the running app.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    pub name: String,
    pub version: String,
    /// Where the configuration file lives (it may not exist yet).
    pub config_path: String,
    /// Protocol revisions the engine speaks, newest first.
    pub protocol_revisions: Vec<String>,
}

#[tauri::command]
#[specta::specta]
pub fn app_info() -> Result<AppInfo, CommandError> {
    let config_path = switchboard_host::config::config_path()?;
    Ok(AppInfo {
        name: "Switchboard".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        config_path: config_path.display().to_string(),
        protocol_revisions: switchboard_mcp::ProtocolVersion::NEWEST_FIRST
            .iter()
            .map(|v| v.as_str().to_owned())
            .collect(),
    })
}

//! The commands the window calls: each a thin adapter onto the host's desk.

pub mod agents;
pub mod approvals;
pub mod chat;
pub mod desktop;
pub mod explorer;
pub mod models;
pub mod registry;
pub mod sampling;
pub mod servers;
pub mod views;

use serde::Serialize;
use switchboard_desk::Desk;

use crate::CommandError;

/// What the window shows about the running app.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    pub name: String,
    pub version: String,
    /// Where the configuration file lives (it may not exist yet).
    pub config_path: String,
    /// What is wrong with the configuration file, if it did not read; it is left as it is.
    pub config_problem: Option<switchboard_core::config::ConfigProblem>,
    /// What the person should know about the audit trail: a damaged file moved aside, a
    /// retention setting that did not read.
    pub audit_notices: Vec<switchboard_desk::FileNotice>,
    /// Protocol revisions the engine speaks, newest first.
    pub protocol_revisions: Vec<String>,
}

#[tauri::command]
#[specta::specta]
pub fn app_info(desk: tauri::State<'_, Desk>) -> Result<AppInfo, CommandError> {
    Ok(AppInfo {
        name: "Switchboard".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        config_path: desk.config_path().display().to_string(),
        config_problem: desk.config_problem(),
        audit_notices: desk.activity().notices().to_vec(),
        protocol_revisions: switchboard_mcp::ProtocolVersion::NEWEST_FIRST
            .iter()
            .map(|v| v.as_str().to_owned())
            .collect(),
    })
}

use serde::Serialize;

/// What every command returns on failure: a stable code the UI can branch on and a
/// message a person can read.
#[derive(Debug, Clone, Serialize, specta::Type, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The host's configuration could not be located or read.
    Config,
}

impl From<switchboard_host::config::ConfigPathError> for CommandError {
    fn from(err: switchboard_host::config::ConfigPathError) -> Self {
        Self {
            code: ErrorCode::Config,
            message: err.to_string(),
        }
    }
}

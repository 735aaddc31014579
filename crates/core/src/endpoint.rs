//! Where agents reach the gateway, as the app that listens and the bridge that connects
//! both know it: the local socket (its path and the line a bridge says first) and the
//! HTTP port agents are told to use.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The environment variable that moves the socket (tests, or a second app of the same
/// user).
pub const SOCKET_ENV: &str = "SWITCHBOARD_GATEWAY_SOCKET";

/// The port agents are told to use when the settings name none: a fixed one, so that an
/// agent's configuration stays right across restarts.
pub const DEFAULT_PORT: u16 = 47_321;

/// What a bridge says first: which agent it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub agent: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no runtime folder to put the gateway's socket in (XDG_RUNTIME_DIR is not set)")]
pub struct NoRuntimeDir;

/// Where the gateway's socket is: `SWITCHBOARD_GATEWAY_SOCKET`, else in the user's
/// runtime folder.
pub fn socket_path() -> Result<PathBuf, NoRuntimeDir> {
    if let Some(path) = std::env::var_os(SOCKET_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let runtime = dirs::runtime_dir().ok_or(NoRuntimeDir)?;
    Ok(runtime.join("switchboard").join("gateway.sock"))
}

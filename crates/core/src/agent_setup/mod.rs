//! Agents' configuration entries for reaching Switchboard: the entries to copy into any
//! agent's MCP configuration, and the change that adds Switchboard to the user-level
//! configuration file of Claude Code, Claude Desktop, Cursor or VS Code, shown before it is
//! written.
//!
//! Files get the bridge's entry (`switchboard-cli bridge --agent NAME`, an ordinary stdio
//! server), never the HTTP one: the HTTP entry carries the agent's bearer token, which
//! would then lie in a plain file that other programs read, back up and sync, while the
//! bridge needs no secret (the app's socket admits only the same user).
//!
//! The entry's key is `switchboard`, whatever the agent's name. It stays valid when the
//! agent is renamed or set up again, and so do the app's own settings that name the server
//! (Claude Code's permission rules `mcp__switchboard__…`, the server toggles of Cursor and
//! VS Code). An app then reaches Switchboard once, as one agent: setting it up for another
//! agent replaces the entry (the diff shows that) rather than offering every tool twice.
//!
//! A change is planned first ([`plan`]: the file, its text now, the text proposed and a
//! unified diff) and written only as planned ([`apply`]), so nothing is written that the
//! person did not see.

mod apps;
mod edit;
mod plan;

use std::path::PathBuf;

use serde_json::{Value, json};

pub use apps::{APPS, AgentApp};
pub use edit::EditError;
pub use plan::{SetupError, SetupPlan, apply, plan};

/// The name Switchboard's entry has in every agent's configuration.
pub const KEY: &str = "switchboard";

/// The program an agent starts to reach Switchboard.
pub const BRIDGE_PROGRAM: &str = "switchboard-cli";

/// The folders the apps keep their configuration under: the person's own for the app,
/// another in tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Home {
    home: PathBuf,
    config: PathBuf,
}

impl Home {
    /// The person's home folder, with its configuration folder as the apps find it
    /// (`$XDG_CONFIG_HOME`, else `~/.config`).
    pub fn of_user() -> Option<Self> {
        Some(Self {
            home: dirs::home_dir()?,
            config: dirs::config_dir()?,
        })
    }

    /// A home folder with its configuration in `.config`.
    pub fn at(home: impl Into<PathBuf>) -> Self {
        let home = home.into();
        Self {
            config: home.join(".config"),
            home,
        }
    }
}

/// How an agent starts the bridge to reach this Switchboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bridge {
    /// The bridge's program: a full path, or a name found on the agent's `PATH`.
    pub program: String,
    /// The app's socket when the bridge would not find it by itself.
    pub socket: Option<PathBuf>,
}

impl Bridge {
    /// The bridge installed beside the running app (else `switchboard-cli` on the `PATH`),
    /// told the app's socket when the app's environment moved it, since the agent's
    /// environment does not say so.
    pub fn of_this_app() -> Self {
        let socket = std::env::var_os(crate::endpoint::SOCKET_ENV)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from);
        Self {
            socket,
            ..Self::beside(&std::env::current_exe().unwrap_or_default())
        }
    }

    /// The bridge installed beside `app`, checked as the bundled demo server is (one in a
    /// folder anyone may write to is not written into an agent's configuration: anyone
    /// could have put it there); else `switchboard-cli`, found on the `PATH`.
    fn beside(app: &std::path::Path) -> Self {
        let beside = crate::launch::bundled(BRIDGE_PROGRAM, app).ok();
        Self {
            program: beside.map_or_else(|| BRIDGE_PROGRAM.to_owned(), |b| b.display().to_string()),
            socket: None,
        }
    }

    /// The bridge's arguments, for `agent`.
    pub fn args(&self, agent: &str) -> Vec<String> {
        let mut args = vec!["bridge".to_owned(), "--agent".to_owned(), agent.to_owned()];
        if let Some(socket) = &self.socket {
            args.extend(["--socket".to_owned(), socket.display().to_string()]);
        }
        args
    }
}

/// The `mcpServers` entry most agents read (Claude Code, Claude Desktop, Cursor and many
/// others), reaching Switchboard through the bridge as `agent`.
pub fn bridge_snippet(bridge: &Bridge, agent: &str) -> String {
    pretty(&json!({
        "mcpServers": {
            KEY: {"command": bridge.program, "args": bridge.args(agent)}
        }
    }))
}

/// The `mcpServers` entry that reaches Switchboard over Streamable HTTP at `url` with the
/// agent's bearer `token`.
pub fn http_snippet(url: &str, token: &str) -> String {
    pretty(&json!({
        "mcpServers": {
            KEY: {
                "type": "http",
                "url": url,
                "headers": {"Authorization": format!("Bearer {token}")}
            }
        }
    }))
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridge_written_for_agents_is_the_one_beside_the_app_unless_anyone_may_write_there() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("switchboard");
        assert_eq!(
            Bridge::beside(&app).program,
            BRIDGE_PROGRAM,
            "none beside it"
        );
        let bridge = dir.path().join(BRIDGE_PROGRAM);
        std::fs::write(&bridge, "").unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(Bridge::beside(&app).program, bridge.display().to_string());
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(
            Bridge::beside(&app).program,
            BRIDGE_PROGRAM,
            "a folder anyone may write to is not trusted"
        );
    }
}

//! The apps Switchboard can be added to: where each keeps its user-level MCP servers on
//! Linux, under which key, in which shape, and what the person does for it to take effect.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Bridge, Home};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum AgentApp {
    ClaudeCode,
    ClaudeDesktop,
    Cursor,
    VsCode,
}

pub const APPS: [AgentApp; 4] = [
    AgentApp::ClaudeCode,
    AgentApp::ClaudeDesktop,
    AgentApp::Cursor,
    AgentApp::VsCode,
];

/// Which folder a file is under.
#[derive(Clone, Copy)]
enum Base {
    Home,
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    Config,
}

/// The syntax a file is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Syntax {
    Json,
    /// JSON with comments and trailing commas, as VS Code reads it.
    Jsonc,
}

struct Profile {
    name: &'static str,
    base: Base,
    file: &'static str,
    syntax: Syntax,
    /// The top-level object that holds the servers, by name.
    servers: &'static str,
    /// Whether an entry names its transport (`"type": "stdio"`).
    typed: bool,
}

// Each app's user-level file, as its documentation gives it.

/// The user scope (`claude mcp add --scope user`): the top level of ~/.claude.json, each
/// entry with its type as `claude mcp add` writes it.
const CLAUDE_CODE: Profile = Profile {
    name: "Claude Code",
    base: Base::Home,
    file: ".claude.json",
    syntax: Syntax::Json,
    servers: "mcpServers",
    typed: true,
};

const CLAUDE_DESKTOP: Profile = Profile {
    name: "Claude Desktop",
    base: Base::Config,
    file: "Claude/claude_desktop_config.json",
    syntax: Syntax::Json,
    servers: "mcpServers",
    typed: false,
};

const CURSOR: Profile = Profile {
    name: "Cursor",
    base: Base::Home,
    file: ".cursor/mcp.json",
    syntax: Syntax::Json,
    servers: "mcpServers",
    typed: false,
};

/// The user profile's mcp.json: servers under `servers`, each with its type.
const VS_CODE: Profile = Profile {
    name: "VS Code",
    base: Base::Config,
    file: "Code/User/mcp.json",
    syntax: Syntax::Jsonc,
    servers: "servers",
    typed: true,
};

impl AgentApp {
    fn profile(self) -> &'static Profile {
        match self {
            Self::ClaudeCode => &CLAUDE_CODE,
            Self::ClaudeDesktop => &CLAUDE_DESKTOP,
            Self::Cursor => &CURSOR,
            Self::VsCode => &VS_CODE,
        }
    }

    /// The app's name as a person knows it.
    pub fn name(self) -> &'static str {
        self.profile().name
    }

    /// Where the app keeps its user-level MCP servers.
    pub fn path(self, home: &Home) -> PathBuf {
        let profile = self.profile();
        match profile.base {
            Base::Home => home.home.join(profile.file),
            Base::Config => home.config.join(profile.file),
        }
    }

    pub(super) fn syntax(self) -> Syntax {
        self.profile().syntax
    }

    /// The top-level key of the servers in the app's file.
    pub fn servers_key(self) -> &'static str {
        self.profile().servers
    }

    /// Switchboard's entry in this app's format: the bridge, as `agent`.
    pub fn entry(self, bridge: &Bridge, agent: &str) -> Value {
        let mut entry = Map::new();
        if self.profile().typed {
            entry.insert("type".into(), "stdio".into());
        }
        entry.insert("command".into(), bridge.program.clone().into());
        entry.insert("args".into(), bridge.args(agent).into());
        Value::Object(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_app_has_its_own_file_in_the_home_or_configuration_folder() {
        let home = Home::at("/h");
        let paths: Vec<String> = APPS
            .iter()
            .map(|app| app.path(&home).display().to_string())
            .collect();
        assert_eq!(
            paths,
            [
                "/h/.claude.json",
                "/h/.config/Claude/claude_desktop_config.json",
                "/h/.cursor/mcp.json",
                "/h/.config/Code/User/mcp.json",
            ]
        );
    }

    #[test]
    fn vs_code_and_claude_code_entries_name_their_transport() {
        let bridge = Bridge {
            program: "/opt/switchboard/switchboard-cli".into(),
            socket: None,
        };
        let args = serde_json::json!(["bridge", "--agent", "Cursor"]);
        for app in APPS {
            let entry = app.entry(&bridge, "Cursor");
            assert_eq!(entry["command"], "/opt/switchboard/switchboard-cli");
            assert_eq!(entry["args"], args);
            let typed = matches!(app, AgentApp::ClaudeCode | AgentApp::VsCode);
            assert_eq!(entry.get("type").is_some(), typed, "{app:?}: {entry}");
        }
    }
}

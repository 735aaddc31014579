//! What one agent may reach, as the person chooses it in the window: every server or a
//! chosen set, each tool of a server on or off for that agent alone, and a server's
//! resources and prompts. The choices are kept in the agent's entry (`servers`,
//! `disabledTools`, `resourcesOff`, `promptsOff`); a connected agent hears of them
//! at once as `list_changed`, since they are announced as `AgentsChanged`.

use serde::Serialize;

use super::{AgentError, Agents};
use crate::switches::ToolSwitch;
use switchboard_core::server_events::ServerState;

/// An agent's reach: which servers, and which of their tools.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AgentReach {
    /// Every configured server, now and added later; else only those marked `reached`.
    pub every_server: bool,
    /// Every configured server, by name.
    pub servers: Vec<ServerReach>,
}

/// One server as an agent reaches it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerReach {
    pub server: String,
    pub reached: bool,
    /// Whether it runs now: a server that does not has told no tools yet.
    pub running: bool,
    pub tools: Vec<AgentTool>,
    /// Whether its resources, and its prompts, are on for the agent.
    pub resources: bool,
    pub prompts: bool,
}

/// A tool of a server, on or off for the agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AgentTool {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// On for this agent (it sees it only if it is also on for everyone).
    pub on: bool,
    /// Turned off for everyone in the server's own settings.
    pub off_for_everyone: bool,
    /// False for a tool turned off that the server no longer lists.
    pub listed: bool,
}

impl Agents {
    /// Which servers and tools `agent` may use, every configured server listed.
    pub fn reach(&self, agent: &str) -> Result<AgentReach, AgentError> {
        let config = self.configured(agent)?;
        let names: Vec<String> = self.host.config().servers.into_keys().collect();
        let running = self.host.states();
        let servers = names
            .into_iter()
            .map(|server| {
                let off = config.disabled_tools.get(&server);
                let switches = self.host.server_tools(&server);
                let mut tools: Vec<AgentTool> = switches
                    .into_iter()
                    .map(
                        |ToolSwitch {
                             name,
                             title,
                             description,
                             on,
                             listed,
                         }| AgentTool {
                            on: !off.is_some_and(|off| off.contains(&name)),
                            off_for_everyone: !on,
                            name,
                            title,
                            description,
                            listed,
                        },
                    )
                    .collect();
                // Turned off for the agent, and no longer listed: kept so it can be turned on.
                let gone: Vec<AgentTool> = off
                    .into_iter()
                    .flatten()
                    .filter(|name| !tools.iter().any(|t| &t.name == *name))
                    .map(|name| AgentTool {
                        name: name.clone(),
                        title: None,
                        description: None,
                        on: false,
                        off_for_everyone: false,
                        listed: false,
                    })
                    .collect();
                tools.extend(gone);
                ServerReach {
                    reached: config.reaches(&server),
                    resources: !config.resources_off.contains(&server),
                    prompts: !config.prompts_off.contains(&server),
                    running: matches!(running.get(&server), Some(ServerState::Running { .. })),
                    tools,
                    server,
                }
            })
            .collect();
        Ok(AgentReach {
            every_server: config.servers.is_none(),
            servers,
        })
    }
}

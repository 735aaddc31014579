//! The agents the person lets reach their servers through the gateway: named in the
//! configuration, each with the servers and tools it may use; what each of them sees of
//! the running servers; and the rules given to an agent, forgotten with it.

use std::collections::BTreeSet;
use std::sync::Weak;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;
use serde::Serialize;
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::connection::{Connection, RequestError, WeakConnection};
use tokio_util::sync::CancellationToken;

use crate::explore::ProgressItem;
use crate::explore::Running;
use crate::switches::TurnedOff;
use crate::{AuditEntry, Desk, DeskError, Update};
use switchboard_core::approvals::Serving;
use switchboard_core::catalog::Offer;
use switchboard_core::clock::now_ms;
use switchboard_core::config::{AgentConfig, Offered};
use switchboard_core::decisions::Origin;
use switchboard_core::gate::Callee;
use switchboard_core::reads::Read;

/// The agents' live sessions with the gateway.
#[derive(Default)]
pub(super) struct Sessions {
    live: Mutex<Vec<Live>>,
    next: AtomicU64,
}

struct Live {
    id: u64,
    agent: String,
    connection: WeakConnection,
    /// Opened with the agent's token (over HTTP), not through the bridge.
    by_token: bool,
}

/// A session counted as live while this is held (by the session itself).
pub struct SessionHeld {
    desk: Weak<super::Inner>,
    id: u64,
}

impl Drop for SessionHeld {
    fn drop(&mut self) {
        let Some(inner) = self.desk.upgrade() else {
            return;
        };
        inner.sessions.live.lock().retain(|live| live.id != self.id);
        inner.updates.send(Update::AgentsChanged);
    }
}

/// An agent as the window lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AgentSummary {
    pub name: String,
    /// The servers it may use; none for every server.
    pub servers: Option<Vec<String>>,
    /// How many tools are turned off for it alone.
    pub tools_off: u32,
    /// How many sessions it has with the gateway now.
    pub connected: u32,
}

/// The longest agent name: it shows in every dialog.
const MAX_NAME: usize = 64;

impl Desk {
    /// Every configured agent, by name.
    pub fn agents(&self) -> Vec<AgentSummary> {
        let live: Vec<String> = self
            .inner
            .sessions
            .live
            .lock()
            .iter()
            .map(|l| l.agent.clone())
            .collect();
        self.inner
            .loaded
            .lock()
            .config
            .agents
            .iter()
            .map(|(name, agent)| AgentSummary {
                name: name.clone(),
                servers: agent.servers.as_ref().map(|s| s.iter().cloned().collect()),
                connected: live.iter().filter(|l| *l == name).count() as u32,
                tools_off: agent
                    .disabled_tools
                    .values()
                    .map(BTreeSet::len)
                    .sum::<usize>() as u32,
            })
            .collect()
    }

    /// The agent of this name, as configured now.
    pub fn agent_config(&self, name: &str) -> Option<AgentConfig> {
        self.inner.loaded.lock().config.agents.get(name).cloned()
    }

    /// Adds an agent, or changes which servers an existing one may use (`None`: all); its
    /// tools turned off stay so.
    pub async fn save_agent(
        &self,
        name: &str,
        servers: Option<Vec<String>>,
    ) -> Result<(), DeskError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(DeskError::BadAgentName(name.to_owned()));
        }
        let name = name.to_owned();
        self.edit_config_announcing(
            move |config| {
                if let Some(unknown) = servers
                    .iter()
                    .flatten()
                    .find(|s| !config.servers.contains_key(*s))
                {
                    return Err(DeskError::NoServer(unknown.clone()));
                }
                let agent = config.agents.entry(name).or_default();
                agent.servers = servers.map(|s| s.into_iter().collect());
                Ok(())
            },
            Update::AgentsChanged,
        )
        .await
    }

    /// Removes an agent: its calls are refused from now on, what the person allowed it is
    /// forgotten, and the folders it offered are unshared.
    pub async fn remove_agent(&self, name: &str) -> Result<(), DeskError> {
        let removed = name.to_owned();
        self.edit_config_announcing(
            move |config| {
                config
                    .agents
                    .remove(&removed)
                    .map(drop)
                    .ok_or(DeskError::NoAgent(removed))
            },
            Update::AgentsChanged,
        )
        .await?;
        self.inner.gate.forget_agent(name).await;
        self.withdraw_offered_folders(name).await;
        self.disconnect_agent(name).await;
        self.forget_agent_token(name).await
    }

    /// Counts a gateway session of `agent` as live until the returned value is dropped;
    /// `by_token`: opened with its token (over HTTP), which renewing it ends.
    pub fn session_opened(
        &self,
        agent: &str,
        connection: &Connection,
        by_token: bool,
    ) -> SessionHeld {
        let id = self.inner.sessions.next.fetch_add(1, Ordering::Relaxed);
        self.inner.sessions.live.lock().push(Live {
            id,
            agent: agent.to_owned(),
            connection: connection.downgrade(),
            by_token,
        });
        self.announce(Update::AgentsChanged);
        SessionHeld {
            desk: std::sync::Arc::downgrade(&self.inner),
            id,
        }
    }

    /// Ends every session `agent` has with the gateway now; it may connect again (unless it
    /// was removed). How many were ended.
    pub async fn disconnect_agent(&self, agent: &str) -> usize {
        self.end_sessions(agent, false).await
    }

    /// Ends `agent`'s sessions (only those opened with its token, `by_token`); how many.
    pub(super) async fn end_sessions(&self, agent: &str, by_token: bool) -> usize {
        let ending: Vec<Connection> = self
            .inner
            .sessions
            .live
            .lock()
            .iter()
            .filter(|live| live.agent == agent && (live.by_token || !by_token))
            .filter_map(|live| live.connection.upgrade())
            .collect();
        for connection in &ending {
            connection.close().await;
        }
        ending.len()
    }

    /// Turns `tool` of `server` on or off for one agent.
    pub async fn set_agent_tool(
        &self,
        name: &str,
        server: &str,
        tool: &str,
        on: bool,
    ) -> Result<(), DeskError> {
        let (at, tool) = (server.to_owned(), tool.to_owned());
        self.edit_agent_reach(name, server, move |agent| {
            let off = agent.disabled_tools.entry(at).or_default();
            crate::switches::turn(off, &tool, on);
            agent.disabled_tools.retain(|_, off| !off.is_empty());
        })
        .await
    }

    /// Turns `server`'s resources or prompts on or off for one agent.
    pub async fn set_agent_offered(
        &self,
        name: &str,
        server: &str,
        of: Offered,
        on: bool,
    ) -> Result<(), DeskError> {
        let at = server.to_owned();
        self.edit_agent_reach(name, server, move |agent| {
            let off = match of {
                Offered::Resources => &mut agent.resources_off,
                Offered::Prompts => &mut agent.prompts_off,
            };
            crate::switches::turn(off, &at, on);
        })
        .await
    }

    /// Changes what the agent `name` may use of `server` (both configured), and tells its
    /// sessions.
    async fn edit_agent_reach(
        &self,
        name: &str,
        server: &str,
        change: impl FnOnce(&mut AgentConfig) + Send + 'static,
    ) -> Result<(), DeskError> {
        let (agent_name, server_name) = (name.to_owned(), server.to_owned());
        self.edit_config_announcing(
            move |config| {
                if !config.servers.contains_key(&server_name) {
                    return Err(DeskError::NoServer(server_name));
                }
                let agent = config
                    .agents
                    .get_mut(&agent_name)
                    .ok_or(DeskError::NoAgent(agent_name))?;
                change(agent);
                Ok(())
            },
            Update::AgentsChanged,
        )
        .await
    }

    /// What `agent` sees of the running servers, by server: only the servers it may use,
    /// of their tools none turned off for it or for everyone, and none of their resources
    /// or prompts where those are turned off for it. `None` when no agent of
    /// this name is configured.
    pub fn offers_for(&self, agent: &str) -> Option<Vec<(String, Offer)>> {
        let agent = self.agent_config(agent)?;
        let off = TurnedOff::now(&self.inner);
        let states = self.inner.shared.states.lock().clone();
        let catalog = &self.inner.shared.catalog;
        Some(
            states
                .keys()
                .filter(|server| agent.reaches(server))
                .filter_map(|server| {
                    let mut offer = catalog.offer(server)?;
                    offer.tools.retain(|tool| {
                        agent.offers(server, &tool.name) && !off.holds(server, &tool.name)
                    });
                    if !agent.reads(server, Offered::Resources) {
                        offer.resources.clear();
                        offer.templates.clear();
                    }
                    if !agent.reads(server, Offered::Prompts) {
                        offer.prompts.clear();
                    }
                    Some((server.clone(), offer))
                })
                .collect(),
        )
    }

    /// The agent's most recent calls, newest first, as the audit trail keeps them.
    pub async fn agent_calls(&self, name: &str, limit: u32) -> Result<Vec<AuditEntry>, DeskError> {
        let asked_by = Origin::Agent {
            name: name.to_owned(),
        }
        .describe();
        let mut found = self.search_audit(&asked_by, None, limit).await?;
        found.retain(|entry| entry.asked_by == asked_by);
        Ok(found)
    }

    /// What an agent's MCP configuration needs to reach Switchboard as `name`: the
    /// `mcpServers` entry most agents read (Claude Code, Claude Desktop, Cursor), the
    /// bridge found beside the running app.
    pub fn agent_snippet(&self, name: &str) -> String {
        switchboard_core::agent_setup::bridge_snippet(&self.bridge(), name)
    }

    /// The server and name of the tool `agent` sees as `id`, if it may use it now.
    pub fn agent_tool(&self, agent: &str, id: &str) -> Option<(String, String)> {
        let agent = self.agent_config(agent)?;
        let off = TurnedOff::now(&self.inner);
        let states = self.inner.shared.states.lock().clone();
        self.inner.shared.catalog.tool_named(id, |server, tool| {
            states.contains_key(server) && agent.offers(server, tool) && !off.holds(server, tool)
        })
    }

    /// The input schema of the tool `agent` sees as `id`, as its server lists it, if the
    /// agent may use it now.
    pub fn agent_tool_schema(
        &self,
        agent: &str,
        id: &str,
    ) -> Option<serde_json::Map<String, serde_json::Value>> {
        let (server, tool) = self.agent_tool(agent, id)?;
        let found = self.inner.shared.catalog.find_tool(&server, &tool)?;
        Some(found.input_schema)
    }

    /// The live session with a running server, for the host's own use (what the gateway
    /// reads for an agent goes through [`Self::agent_read`], past the gate).
    pub fn running_client(&self, server: &str) -> Result<Client, DeskError> {
        self.client(server)
    }

    /// Reads `read` of `server` for `agent` through the gate (see [`Gate::read`]), with the
    /// server's live session, once a rule or the person allowed it. The read is a call under
    /// way named `token` meanwhile, as a tool call is: the activity view lists it and can
    /// cancel it, and what the server asks while serving it is the agent's to answer as far
    /// as the person lets it (see [`Self::call_made_by`]).
    ///
    /// [`Gate::read`]: switchboard_core::gate::Gate::read
    pub async fn agent_read<T, F>(
        &self,
        agent: &str,
        server: &str,
        read: Read,
        token: String,
        reading: impl FnOnce(Client) -> F,
    ) -> Result<T, DeskError>
    where
        F: Future<Output = Result<T, ClientError>>,
    {
        let client = self.client(server)?;
        let config = self.server_config(server)?;
        let origin = Origin::Agent {
            name: agent.to_owned(),
        };
        let callee = Callee::of(server, &config);
        let cancel = CancellationToken::new();
        let named = read.named();
        let item = ProgressItem {
            token: token.clone(),
            server: server.to_owned(),
            label: capitalized(&named),
            progress: 0.0,
            total: None,
            message: None,
            started_ms: now_ms(),
        };
        let by = Serving {
            origin: origin.clone(),
            call: named,
        };
        self.call_began(item, by, cancel.clone());
        let _running = Running {
            desk: self,
            token: token.clone(),
        };
        let method = read.method();
        // The gate polls the reading only once it is allowed: the server serves it from then.
        let served = async {
            self.call_served(&token);
            reading(client).await
        };
        tokio::select! {
            read = self.inner.gate.read(&origin, &callee, read, served) => Ok(read?),
            // Dropping the read takes its question off the person's list, or tells the
            // server it is cancelled.
            () = cancel.cancelled() => Err(ClientError::Request(RequestError::Cancelled {
                method: method.to_owned(),
            })
            .into()),
        }
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

//! The agents' service: the agents the person lets reach their servers through the
//! gateway, named in the configuration, each with the servers and tools it may use; what
//! each of them sees of the running servers; their live sessions, tokens and calls; the
//! folders they offer and the requests they answer in the person's stead. It is all the
//! gateway knows of the host, and it reaches the rest of the host through one port
//! ([`AgentsHost`]), which the desk implements over its parts and tests in memory.

mod delegates;
mod host;
mod reach;
mod roots;
mod sessions;
mod setup;
mod tokens;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::keeps::{Keeping, Keeps};
use serde::Serialize;
use serde_json::{Map, Value};
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::types::apps;
use tokio::sync::broadcast;

use crate::explorer::{ExplorerError, Follower};
use crate::trust::TrustError;
use crate::{AuditEntry, DeskError, Update};
use switchboard_core::approvals::AnswerError;
use switchboard_core::audit::AuditError;
use switchboard_core::catalog::Offer;
use switchboard_core::config::{AgentConfig, ConfigError, Offered};
use switchboard_core::decisions::Origin;
use switchboard_core::gate::CallError;
use switchboard_core::reads::Read;
use switchboard_core::roots::RootError;
use switchboard_core::secrets::SecretError;
use switchboard_core::server_events::ServerEvent;

pub use delegates::{AgentLine, LineHeld};
pub use host::{AgentCall, AgentsHost, ConfigChange, Reading};
pub use reach::{AgentReach, AgentTool, ServerReach};
pub use sessions::SessionHeld;
pub use tokens::{GatewayProblem, GatewayStatus, token_secret_name};

#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("there is no agent named {0:?}: add it on the Agents page")]
    NoAgent(String),
    #[error(
        "{0:?} cannot name an agent: give a name of 1 to 64 characters, with no control characters"
    )]
    BadAgentName(String),
    #[error("there is no server named {0:?}")]
    NoServer(String),
    #[error("{0} is not running")]
    NotRunning(String),
    #[error("the system gave no randomness for a token: {0}")]
    NoRandomness(String),
    #[error(transparent)]
    Keyring(#[from] SecretError),
    #[error(transparent)]
    Setup(#[from] switchboard_core::agent_setup::SetupError),
    #[error(transparent)]
    Roots(#[from] RootError),
    #[error(transparent)]
    Answer(#[from] AnswerError),
    #[error(transparent)]
    Audit(#[from] AuditError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("the configuration file must be fixed first: {0}")]
    BrokenConfig(switchboard_core::config::ConfigProblem),
    /// The gate's refusal, or the server's, of a call or read.
    #[error(transparent)]
    Call(#[from] CallError),
    #[error(transparent)]
    Client(#[from] ClientError),
    /// A call or read stopped before its end (its task was cancelled or failed).
    #[error("the call stopped before its end: {0}")]
    Interrupted(String),
    /// The host is shutting down: nothing more is done for agents.
    #[error("Switchboard is shutting down")]
    ShuttingDown,
    /// The rest of the host refused (a tool no longer listed or turned off, pages to
    /// finish in the browser first, ...), in its own words.
    #[error(transparent)]
    Host(Box<DeskError>),
}

impl From<TrustError> for AgentError {
    fn from(error: TrustError) -> Self {
        match error {
            TrustError::Roots(roots) => Self::Roots(roots),
            TrustError::Answer(answer) => Self::Answer(answer),
            other => Self::Host(Box::new(DeskError::Trust(other))),
        }
    }
}

impl From<ExplorerError> for AgentError {
    fn from(error: ExplorerError) -> Self {
        match error {
            ExplorerError::NoServer(server) => Self::NoServer(server),
            ExplorerError::NotRunning(server) => Self::NotRunning(server),
            ExplorerError::Call(call) => Self::Call(call),
            ExplorerError::Client(client) => Self::Client(client),
            other => Self::Host(Box::new(DeskError::Explorer(other))),
        }
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

/// What the service keeps of its own.
#[derive(Default)]
struct Own {
    sessions: sessions::Sessions,
    tokens: tokens::Tokens,
    lines: delegates::Lines,
    setup_places: setup::Places,
}

impl crate::EditError for AgentError {
    fn broken(problem: switchboard_core::config::ConfigProblem) -> Self {
        Self::BrokenConfig(problem)
    }
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Agents {
    own: Arc<Own>,
    host: Arc<dyn AgentsHost>,
    _keeps: Keeps,
}

impl Keeping for Agents {
    fn keeps(&mut self) -> &mut Keeps {
        &mut self._keeps
    }
}

impl Agents {
    pub fn new(host: Arc<dyn AgentsHost>) -> Self {
        Self {
            own: Arc::default(),
            host,
            _keeps: Keeps::default(),
        }
    }

    /// Every configured agent, by name.
    pub fn list(&self) -> Vec<AgentSummary> {
        let live = self.own.sessions.agents();
        self.host
            .config()
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
    pub fn config(&self, name: &str) -> Option<AgentConfig> {
        self.host.agent(name)
    }

    fn configured(&self, name: &str) -> Result<AgentConfig, AgentError> {
        self.config(name)
            .ok_or_else(|| AgentError::NoAgent(name.to_owned()))
    }

    /// Adds an agent, or changes which servers an existing one may use (`None`: all); its
    /// tools turned off stay so.
    pub async fn save(&self, name: &str, servers: Option<Vec<String>>) -> Result<(), AgentError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(AgentError::BadAgentName(name.to_owned()));
        }
        let name = name.to_owned();
        self.host
            .edit(Box::new(move |config| {
                if let Some(unknown) = servers
                    .iter()
                    .flatten()
                    .find(|s| !config.servers.contains_key(*s))
                {
                    return Err(AgentError::NoServer(unknown.clone()));
                }
                let agent = config.agents.entry(name).or_default();
                agent.servers = servers.map(|s| s.into_iter().collect());
                Ok(())
            }))
            .await
    }

    /// Removes an agent: its calls are refused from now on, what the person allowed it is
    /// forgotten, and the folders it offered are unshared.
    pub async fn remove(&self, name: &str) -> Result<(), AgentError> {
        let removed = name.to_owned();
        self.host
            .edit(Box::new(move |config| {
                config
                    .agents
                    .remove(&removed)
                    .map(drop)
                    .ok_or(AgentError::NoAgent(removed))
            }))
            .await?;
        self.host.forget(name).await;
        self.disconnect(name).await;
        self.forget_token(name).await
    }

    /// Turns `tool` of `server` on or off for one agent.
    pub async fn set_tool(
        &self,
        name: &str,
        server: &str,
        tool: &str,
        on: bool,
    ) -> Result<(), AgentError> {
        let (at, tool) = (server.to_owned(), tool.to_owned());
        self.edit_reach(name, server, move |agent| {
            let off = agent.disabled_tools.entry(at).or_default();
            crate::switches::turn(off, &tool, on);
            agent.disabled_tools.retain(|_, off| !off.is_empty());
        })
        .await
    }

    /// Turns `server`'s resources or prompts on or off for one agent.
    pub async fn set_offered(
        &self,
        name: &str,
        server: &str,
        of: Offered,
        on: bool,
    ) -> Result<(), AgentError> {
        let at = server.to_owned();
        self.edit_reach(name, server, move |agent| {
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
    async fn edit_reach(
        &self,
        name: &str,
        server: &str,
        change: impl FnOnce(&mut AgentConfig) + Send + 'static,
    ) -> Result<(), AgentError> {
        let (agent_name, server_name) = (name.to_owned(), server.to_owned());
        self.host
            .edit(Box::new(move |config| {
                if !config.servers.contains_key(&server_name) {
                    return Err(AgentError::NoServer(server_name));
                }
                let agent = config
                    .agents
                    .get_mut(&agent_name)
                    .ok_or(AgentError::NoAgent(agent_name))?;
                change(agent);
                Ok(())
            }))
            .await
    }

    /// What `agent` sees of the running servers, by server: only the servers it may use,
    /// of their tools none turned off for it or for everyone, and none of their resources
    /// or prompts where those are turned off for it. `None` when no agent of
    /// this name is configured.
    pub fn offers_for(&self, agent: &str) -> Option<Vec<(String, Offer)>> {
        let agent = self.config(agent)?;
        Some(
            self.host
                .offers()
                .into_iter()
                .filter(|(server, _)| agent.reaches(server))
                .map(|(server, mut offer)| {
                    offer.tools.retain(|tool| agent.offers(&server, &tool.name));
                    if !agent.reads(&server, Offered::Resources) {
                        offer.resources.clear();
                        offer.templates.clear();
                    }
                    if !agent.reads(&server, Offered::Prompts) {
                        offer.prompts.clear();
                    }
                    (server, offer)
                })
                .collect(),
        )
    }

    /// The agent's most recent calls, newest first, as the audit trail keeps them.
    pub async fn calls(&self, name: &str, limit: u32) -> Result<Vec<AuditEntry>, AgentError> {
        let asked_by = Origin::Agent {
            name: name.to_owned(),
        }
        .describe();
        let mut found = self.host.asked_by(asked_by.clone(), limit).await?;
        found.retain(|entry| entry.asked_by == asked_by);
        Ok(found)
    }

    /// The server and name of the tool `agent` sees as `id`, if it may use it now.
    pub fn tool(&self, agent: &str, id: &str) -> Option<(String, String)> {
        let agent = self.config(agent)?;
        let (server, tool) = self
            .host
            .tool_named(id, &|server, tool| agent.offers(server, tool))?;
        // A tool only its view may call is no agent's.
        let listed = self.host.tool(&server, &tool)?;
        apps::offered_to_models(&listed).then_some((server, tool))
    }

    /// The input schema of the tool `agent` sees as `id`, as its server lists it, if the
    /// agent may use it now.
    pub fn tool_schema(&self, agent: &str, id: &str) -> Option<Map<String, Value>> {
        let (server, tool) = self.tool(agent, id)?;
        Some(self.host.tool(&server, &tool)?.input_schema)
    }

    /// The live session with a running server, to read what it declared (what the gateway
    /// reads for an agent goes through [`Self::read`], past the gate).
    pub fn running_client(&self, server: &str) -> Result<Client, AgentError> {
        self.host
            .client(server)
            .ok_or_else(|| AgentError::NotRunning(server.to_owned()))
    }

    /// Calls a tool for `agent` through the gate: its rules or the person decide first.
    pub async fn call(&self, agent: &str, call: AgentCall) -> Result<Value, AgentError> {
        let origin = Origin::Agent {
            name: agent.to_owned(),
        };
        self.host.call(origin, call).await
    }

    /// Reads `read` of `server` for `agent` through the gate, with the server's live
    /// session, once a rule or the person allowed it. The read is a call under way named
    /// `token` meanwhile, as a tool call is: the activity view lists it and can cancel it,
    /// and what the server asks while serving it is the agent's to answer as far as the
    /// person lets it (see [`Self::call_made_by`]).
    pub async fn read<T, F>(
        &self,
        agent: &str,
        server: &str,
        read: Read,
        token: String,
        reading: impl FnOnce(Client) -> F + Send + 'static,
    ) -> Result<Value, AgentError>
    where
        T: Serialize,
        F: Future<Output = Result<T, ClientError>> + Send + 'static,
    {
        let origin = Origin::Agent {
            name: agent.to_owned(),
        };
        let reading: Reading = Box::new(move |client| {
            Box::pin(async move {
                let read = reading(client).await?;
                Ok(serde_json::to_value(read).unwrap_or(Value::Null))
            })
        });
        self.host.read(origin, server, read, token, reading).await
    }

    /// Cancels a call under way; the server is told. False if it had already ended.
    pub fn cancel(&self, token: &str) -> bool {
        self.host.cancel(token)
    }

    /// The updates an agent's session follows: not each call's progress, nor each word of
    /// a conversation, which would wake every session.
    pub fn updates(&self) -> broadcast::Receiver<Update> {
        self.host.updates()
    }

    /// The servers' events as their connections see them, before any update is made of
    /// them: a server's log message sent during a call is here before the call's result.
    pub fn server_events(&self) -> broadcast::Receiver<ServerEvent> {
        self.host.server_events()
    }

    /// `who` follows `uri` of `server` from now on (see [`crate::Desk::follow_resource`]).
    pub async fn follow(&self, who: Follower, server: &str, uri: &str) -> Result<(), AgentError> {
        self.host.follow(who, server, uri).await
    }

    /// `who` no longer follows `uri` of `server`; the server is told once no one does.
    pub async fn unfollow(&self, who: Follower, server: &str, uri: &str) -> Result<(), AgentError> {
        self.host.unfollow(who, server, uri).await
    }

    /// Whether `who` follows `uri` of `server`.
    pub fn follows(&self, who: Follower, server: &str, uri: &str) -> bool {
        self.host.follows(who, server, uri)
    }

    /// What `who` follows: server and URI.
    pub fn followed_by(&self, who: Follower) -> Vec<(String, String)> {
        self.host.followed_by(who)
    }

    /// Lets go of everything `who` follows (a session that ended).
    pub async fn unfollow_all(&self, who: Follower) {
        for (server, uri) in self.followed_by(who) {
            if let Err(e) = self.unfollow(who, &server, &uri).await {
                tracing::debug!("{server} was not told to stop updates of {uri}: {e}");
            }
        }
    }
}

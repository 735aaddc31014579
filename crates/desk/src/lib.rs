//! The desk: the composition root of the host as the window and the gateway use it. It
//! opens the parts (the configuration file and its edits, the fleet of servers, the gate
//! with its approval broker and audit trail, the roots, the keyring), builds one service per
//! area of the window on them (servers, explorer, trust, models, agents, activity and the
//! chat), each reaching the rest through a port the desk implements (`ports`), hands the
//! services out, and turns what happens in the parts into one stream of updates for the
//! window to show. Its own methods are the host's lifecycle: open, start, watch the file,
//! shut down.

pub mod activity;
pub mod agents;
pub mod chat;
pub mod explorer;
mod file_notice;
mod given;
mod keeps;
#[cfg(test)]
mod layers;
pub mod logbook;
pub mod models;
mod ports;
mod sampling;
pub mod server_settings;
pub mod servers;
mod shown;
mod switches;
pub mod tasks;
pub mod trust;
mod watch;

use keeps::Keeping;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::broadcast;

use switchboard_core::approvals::{Arrival, Broker, BrokerEvent, Forward, Pending, Question};
use switchboard_core::audit::{AuditError, AuditLog, Retention};
use switchboard_core::clock::now_ms;
use switchboard_core::config::{self, Config, ConfigError, ConfigProblem, ServerConfig};
use switchboard_core::fleet::Fleet;
use switchboard_core::gate::Gate;
use switchboard_core::masking;
use switchboard_core::roots::Roots;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_requests::ServerRequestHandler;
use switchboard_core::sqlite_file::Book;
use switchboard_core::supervisor::Shared;

use switchboard_core::server_events::{ServerEvent, ServerState};

pub use activity::{Activity, AuditEntry};
pub use agents::{
    AgentError, AgentLine, AgentReach, AgentSummary, AgentTool, Agents, GatewayProblem,
    GatewayStatus, LineHeld, ServerReach, token_secret_name,
};
pub use chat::{
    Asking, Attachment, ChatServerTools, ChatTool, ChatTools, Composed, ConversationView,
    ExportFormat, ExportWords, Exported, NEW_TITLE, PromptUse, Role, ShownMessage, ShownPart,
    ShownSpent, SpentTotal,
};
pub use chat::{ChatError, Chats};
pub use explorer::{Explorer, ExplorerError, Follower, Offers, OpenedView, ProgressItem};
pub use file_notice::FileNotice;
pub use logbook::{LogEntry, LogSize};
pub use models::{
    KeyChange, KeyState, ModelChoice, Models, ModelsError, ProviderForm, ProviderFormError,
    ProviderSummary, Providers,
};
pub use sampling::{SamplingDraft, SamplingRuleShown};
pub use server_settings::{FormError, KeyValue, ServerForm, ServerSummary};
pub use servers::{
    ImportCandidate, ImportChoice, ImportRequest, ImportSummary, ImportableServer,
    ImportedServerReport, InputAnswer, InstallProposal, RegistryAdd, SandboxView, Servers,
    ServersError, SignedIn, Skipped, SkippedServer,
};
pub use switches::{ToolSwitch, TurnedOff};
pub use trust::{RuleScope, SharedFolders, StandingRule, Trust, TrustError};

/// How many requests one server may keep waiting for the person at once.
const PENDING_PER_SERVER: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    #[error("the configuration file must be fixed first: {0}")]
    BrokenConfig(switchboard_core::config::ConfigProblem),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Audit(#[from] AuditError),
    #[error(transparent)]
    Agent(#[from] AgentError),
    #[error(transparent)]
    Explorer(#[from] ExplorerError),
    #[error(transparent)]
    Models(#[from] ModelsError),
    #[error(transparent)]
    Trust(#[from] TrustError),
    #[error(transparent)]
    Servers(#[from] ServersError),
    #[error(transparent)]
    Chat(#[from] ChatError),
}

/// A service's error, as a change to the configuration fails: the file does not read (it
/// must be fixed first), or cannot be written.
pub(crate) trait EditError: From<ConfigError> + Send + 'static {
    fn broken(problem: ConfigProblem) -> Self;
}

impl EditError for DeskError {
    fn broken(problem: ConfigProblem) -> Self {
        Self::BrokenConfig(problem)
    }
}

/// What changed, for the face to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Update {
    Status {
        server: String,
        state: ServerState,
        since_ms: i64,
    },
    /// Servers were added, removed, renamed, enabled or disabled.
    ServersChanged,
    /// Agents were added, changed or removed.
    AgentsChanged,
    /// Model providers were added, changed or removed, or the default one changed.
    ProvidersChanged,
    /// The configuration file was changed by hand: read again, or found unreadable (the
    /// last good configuration keeps running).
    ConfigChanged {
        problem: Option<ConfigProblem>,
    },
    Log {
        entry: LogEntry,
    },
    CatalogChanged {
        server: String,
    },
    ResourceUpdated {
        server: String,
        uri: String,
    },
    /// A sign-in began or ended waiting for the person to finish it in the browser.
    SignInWaiting {
        server: String,
        waiting: bool,
    },
    /// The next piece of the reply a model drafts for the pending sampling request `id`.
    SamplingDraft {
        id: u64,
        text: String,
    },
    ApprovalAdded {
        pending: Box<Pending>,
    },
    ApprovalRemoved {
        id: u64,
        /// Given up by whoever asked, unanswered: its server cancelled the request (it
        /// stopped waiting) or went away, or a caller stopped waiting for its tool call.
        withdrawn: bool,
    },
    Progress {
        item: ProgressItem,
    },
    ProgressEnded {
        token: String,
    },
    /// A call that runs as a task at its server changed (its state, or its end).
    TaskChanged {
        task: tasks::TaskEntry,
    },
    /// A step of a conversation's run (its completed messages come as
    /// [`Update::ChatMessage`]).
    Chat {
        conversation: i64,
        event: switchboard_chat::ChatEvent,
    },
    /// A message was completed and kept in the conversation.
    ChatMessage {
        conversation: i64,
        message: ShownMessage,
    },
}

impl Update {
    /// Whether an agent's session may need it: what may change the agent's offers, a
    /// server's log message, a resource's update.
    pub(crate) fn concerns_agents(&self) -> bool {
        matches!(
            self,
            Self::Status { .. }
                | Self::CatalogChanged { .. }
                | Self::ServersChanged
                | Self::ConfigChanged { .. }
                | Self::AgentsChanged
                | Self::Log { .. }
                | Self::ResourceUpdated { .. }
        )
    }
}

/// Where updates go: to every follower of the desk, and those that concern agents to the
/// agents' sessions on a channel of their own.
struct Updates {
    all: broadcast::Sender<Update>,
    for_agents: broadcast::Sender<Update>,
}

impl Default for Updates {
    fn default() -> Self {
        Self {
            all: broadcast::channel(4096).0,
            for_agents: broadcast::channel(1024).0,
        }
    }
}

impl Updates {
    fn send(&self, update: Update) {
        if update.concerns_agents() {
            let _ = self.for_agents.send(update.clone());
        }
        let _ = self.all.send(update);
    }
}

/// The configuration as last read, and what is wrong with the file if it did not read.
struct Loaded {
    config: Config,
    problem: Option<ConfigProblem>,
}

struct Inner {
    config_path: PathBuf,
    loaded: Mutex<Loaded>,
    /// Held only while servers start or stop; reads go through `shared`.
    host: tokio::sync::Mutex<Fleet<ServerRequestHandler>>,
    /// Taken by each change to the servers in the file, from its write to the servers
    /// following it.
    edits: tokio::sync::Mutex<()>,
    shared: Shared,
    gate: Gate,
    roots: Roots,
    secrets: Secrets,
    since: Mutex<HashMap<String, i64>>,
    updates: Updates,
    /// The activity's service: the audit trail, and what the person should know of it.
    activity: Activity,
    /// The calls run as tasks, kept; `None` when their file could not be opened.
    task_book: Option<tasks::TaskBook>,
    /// The chat service: conversations, their runs, sampling drafts.
    chats: Chats,
    /// The explorer's service: the catalog, calls and reads through the gate, the calls
    /// under way, the resources followed.
    explorer: Explorer,
    /// The agents' service, which the gateway uses.
    agents: Agents,
    /// The models' service: the providers, their keys and models.
    models: Models,
    /// The trust service: answers, folders, standing rules.
    trust: Trust,
    /// The servers' service: the Servers page, sign-ins, the registry, imports.
    servers: Servers,
}

/// Cheap to clone; every clone is the same desk.
#[derive(Clone)]
pub struct Desk {
    inner: Arc<Inner>,
}

impl Desk {
    /// Opens the desk on a configuration file and an audit database. A configuration file
    /// that does not read leaves the desk with no servers, says why, and is never
    /// overwritten. Must be called within a Tokio runtime.
    pub fn open(
        config_path: &Path,
        audit_path: &Path,
        secrets: Secrets,
    ) -> Result<Self, DeskError> {
        let loaded = match config::load(config_path) {
            Ok(config) => Loaded {
                config,
                problem: None,
            },
            Err(e) => Loaded {
                config: Config::default(),
                problem: Some(e.problem()),
            },
        };
        let settings = &loaded.config.settings;
        let calls = Arc::new(explorer::Calls::default());
        // A tool call put to the person has a caller waiting (a model, or the person
        // themselves); any other request comes forward only while a call to its server is
        // served, so servers asking on their own (at start-up, say) stack no dialogs; and
        // it names the calls it arises from.
        let forward: Forward = Arc::new({
            let calls = calls.clone();
            move |server: &str, question: &Question| match question {
                // A sign-in is asked for by the person, who waits for it.
                Question::ToolCall { .. } | Question::Read { .. } | Question::SignIn { .. } => {
                    Arrival {
                        forward: true,
                        during: Vec::new(),
                    }
                }
                Question::Sampling { .. }
                | Question::Elicitation { .. }
                | Question::Roots
                | Question::AgentRoots { .. } => {
                    let during = calls.served_by(server);
                    Arrival {
                        forward: !during.is_empty(),
                        during,
                    }
                }
            }
        });
        let broker = Broker::new(
            Duration::from_secs(settings.approval_timeout_secs),
            PENDING_PER_SERVER,
        )
        .with_forward(forward);
        let mut audit_notices = Vec::new();
        let retention = Retention::from_settings(settings).unwrap_or_else(|e| {
            let notice = FileNotice::from(&e);
            tracing::warn!("{notice}");
            audit_notices.push(notice);
            Retention::default()
        });
        let audit = Arc::new(AuditLog::open(audit_path, retention)?);
        audit_notices.extend(audit.moved_aside().map(FileNotice::from));
        let conversations = chat::open_conversations(
            &audit_path.with_file_name("conversations.sqlite"),
            &mut audit_notices,
        );
        let task_book = match tasks::TaskBook::open(&audit_path.with_file_name("tasks.sqlite")) {
            Ok(book) => {
                audit_notices.extend(book.moved_aside().map(FileNotice::from));
                Some(book)
            }
            Err(e) => {
                let notice = FileNotice::NotKept {
                    book: Book::Tasks,
                    error: e.to_string(),
                };
                tracing::warn!("{notice}");
                audit_notices.push(notice);
                None
            }
        };
        let roots = Roots::default();
        trust::grant_remembered(&loaded.config, &roots);
        let desk = Self {
            inner: Arc::new_cyclic(|desk| {
                let agents = Agents::new(Arc::new(ports::AgentPorts(desk.clone())));
                let host = Fleet::new(secrets.clone(), {
                    let (broker, roots, audit) = (broker.clone(), roots.clone(), audit.clone());
                    let models: Arc<dyn switchboard_core::sampling::SamplingModels> =
                        Arc::new(ports::SamplingPorts(desk.clone()));
                    let delegates = agents.delegates();
                    move |server: &str| {
                        Arc::new(
                            ServerRequestHandler::new(
                                server,
                                broker.clone(),
                                roots.clone(),
                                audit.clone(),
                            )
                            .with_models(models.clone())
                            .with_delegates(delegates.clone()),
                        )
                    }
                })
                .seeing(roots.clone());
                let shared = host.shared().clone();
                shared.sign_ins().follow_settings(&loaded.config.settings);
                let gate = Gate::new(
                    broker.clone(),
                    audit.clone(),
                    shared.catalog().clone(),
                    &loaded.config.settings,
                    Some(Arc::new(config::RulesInFile(config_path.to_owned()))),
                );
                let explorer = Explorer::new(
                    calls,
                    gate.clone(),
                    shared.catalog().clone(),
                    roots.clone(),
                    Arc::new(ports::ExplorerPorts(desk.clone())),
                );
                let trust = Trust::new(
                    gate.clone(),
                    roots.clone(),
                    shared.catalog().clone(),
                    Arc::new(ports::TrustPorts(desk.clone())),
                );
                let models =
                    Models::new(secrets.clone(), Arc::new(ports::ModelsPorts(desk.clone())));
                let servers = Servers::new(
                    shared.clone(),
                    secrets.clone(),
                    Arc::new(ports::ServersPorts(desk.clone())),
                );
                let chats = Chats::new(
                    conversations,
                    gate.clone(),
                    shared.catalog().clone(),
                    models.clone(),
                    explorer.clone(),
                    Arc::new(ports::ChatPorts(desk.clone())),
                );
                Inner {
                    config_path: config_path.to_owned(),
                    loaded: Mutex::new(loaded),
                    host: tokio::sync::Mutex::new(host),
                    edits: tokio::sync::Mutex::default(),
                    shared,
                    gate,
                    roots,
                    secrets,
                    since: Mutex::default(),
                    updates: Updates::default(),
                    activity: Activity::new(audit.clone(), audit_notices),
                    task_book,
                    chats,
                    trust,
                    explorer,
                    agents,
                    models,
                    servers,
                }
            }),
        };
        desk.relay();
        Ok(desk)
    }

    /// The activity's service: the audit trail.
    pub fn activity(&self) -> &Activity {
        &self.inner.activity
    }

    /// The servers' service. Each value handed out keeps the desk alive while it lives.
    pub fn servers(&self) -> Servers {
        self.inner.servers.keeping(self.inner.clone())
    }

    /// The trust service. Each value handed out keeps the desk alive while it lives.
    pub fn trust(&self) -> Trust {
        self.inner.trust.keeping(self.inner.clone())
    }

    /// The models' service. Each value handed out keeps the desk alive while it lives.
    pub fn models(&self) -> Models {
        self.inner.models.keeping(self.inner.clone())
    }

    /// The explorer's service. Each value handed out keeps the desk alive while it lives.
    pub fn explorer(&self) -> Explorer {
        self.inner.explorer.keeping(self.inner.clone())
    }

    /// The chat service: the conversations with a model and the drafts of servers'
    /// sampling requests. Each value handed out keeps the desk alive while it lives.
    pub fn chats(&self) -> Chats {
        self.inner.chats.keeping(self.inner.clone())
    }

    /// The agents' service: all the gateway knows of the host. Each value handed out keeps
    /// the desk alive while it lives.
    pub fn agents(&self) -> Agents {
        self.inner.agents.keeping(self.inner.clone())
    }

    pub fn updates(&self) -> broadcast::Receiver<Update> {
        self.inner.updates.all.subscribe()
    }

    /// The servers' events as their connections see them, before any update is made of
    /// them: a server's log message sent during a call is here before the call's result.
    pub fn server_events(&self) -> broadcast::Receiver<ServerEvent> {
        self.inner.shared.events()
    }

    fn announce(&self, update: Update) {
        self.inner.updates.send(update);
    }

    /// Turns the host's and the broker's events into updates, keeping the logs and the
    /// time each state began on the way.
    fn relay(&self) {
        let mut host_events = self.inner.shared.events();
        let mut broker_events = self.inner.gate.broker().subscribe();
        let desk = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                let update: Relayed = tokio::select! {
                    event = host_events.recv() => match event {
                        Ok(event) => event,
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return,
                    }.into(),
                    event = broker_events.recv() => match event {
                        Ok(BrokerEvent::Added(pending)) => Update::ApprovalAdded {
                            pending: Box::new(shown::pending(*pending)),
                        }.into(),
                        Ok(BrokerEvent::Removed { id, withdrawn }) => {
                            Update::ApprovalRemoved { id, withdrawn }.into()
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                };
                let Some(inner) = desk.upgrade() else { return };
                let update = match update {
                    Relayed::Ready(update) => update,
                    Relayed::Status { server, state } => {
                        if matches!(state, ServerState::Running { .. }) {
                            let desk = Desk {
                                inner: inner.clone(),
                            };
                            let server = server.clone();
                            tokio::spawn(async move {
                                let explorer = desk.explorer();
                                explorer.follow_again(&server).await;
                                explorer.resume_tasks(&server).await;
                            });
                        }
                        let since_ms = now_ms();
                        inner.since.lock().insert(server.clone(), since_ms);
                        Update::Status {
                            server,
                            state: shown::state(state),
                            since_ms,
                        }
                    }
                    Relayed::Log(entry) => {
                        // A removed server stops in the background: its last lines would
                        // outlive it, and open the log of a server later given its name.
                        if !inner
                            .loaded
                            .lock()
                            .config
                            .servers
                            .contains_key(&entry.server)
                        {
                            continue;
                        }
                        inner.servers.logged(entry.clone());
                        Update::Log { entry }
                    }
                };
                inner.updates.send(update);
            }
        });
    }

    /// Starts the configured servers, and follows the changes made to the file from then on.
    pub async fn start(&self) {
        let config = self.config();
        self.inner.host.lock().await.reconcile(&config);
        if let Err(e) = self.watch_config() {
            tracing::warn!(
                "changes made to the configuration file by hand are seen at the next start: {e}"
            );
        }
    }

    /// Folders were shared with a server as it was launched: one launched otherwise (or
    /// gone) sees none of them.
    fn withdraw_folders(&self, before: &Config, after: &Config) {
        for (name, was) in &before.servers {
            let same = |now: &ServerConfig| now.identity() == was.identity();
            if !after.servers.get(name).is_some_and(same) {
                self.inner.roots.revoke(name);
            }
        }
    }

    pub async fn shutdown(&self) {
        self.inner.gate.broker().refuse_all();
        self.inner.host.lock().await.shutdown().await;
    }

    pub fn config_path(&self) -> &Path {
        &self.inner.config_path
    }

    /// What is wrong with the configuration file, if it did not read.
    pub fn config_problem(&self) -> Option<ConfigProblem> {
        self.inner.loaded.lock().problem.clone()
    }

    fn config(&self) -> Config {
        self.inner.loaded.lock().config.clone()
    }

    /// Changes the configuration file (read afresh under its writers' lock, so edits made
    /// elsewhere are kept), then brings the servers in line with it.
    async fn edit_config<T: Send + 'static, E: EditError>(
        &self,
        change: impl FnOnce(&mut Config) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E> {
        self.edit_config_announcing(change, Update::ServersChanged)
            .await
    }

    /// [`Self::edit_config`], announcing `what` changed; refused in the terms of the
    /// service that asks (`E`).
    async fn edit_config_announcing<T: Send + 'static, E: EditError>(
        &self,
        change: impl FnOnce(&mut Config) -> Result<T, E> + Send + 'static,
        what: Update,
    ) -> Result<T, E> {
        if let Some(problem) = self.config_problem() {
            return Err(E::broken(problem));
        }
        // Held from the write to the reconciliation, so the servers follow the changes
        // in the order they reached the file; the host only while it reconciles, which
        // waits for no server to stop.
        let _editing = self.inner.edits.lock().await;
        let (config, gave) =
            config::update_off_thread(self.inner.config_path.clone(), change).await?;
        // Held by the gate only once the file holds it.
        self.inner.gate.follow_settings(&config.settings);
        self.inner
            .shared
            .sign_ins()
            .follow_settings(&config.settings);
        let before = std::mem::replace(&mut self.inner.loaded.lock().config, config.clone());
        self.withdraw_folders(&before, &config);
        self.inner.host.lock().await.reconcile(&config);
        self.announce(what);
        Ok(gave)
    }
}

/// A host event on its way to becoming an update.
enum Relayed {
    Ready(Update),
    Status { server: String, state: ServerState },
    Log(LogEntry),
}

impl From<ServerEvent> for Relayed {
    fn from(event: ServerEvent) -> Self {
        match event {
            ServerEvent::Status { server, state } => Self::Status { server, state },
            ServerEvent::Log {
                server,
                source,
                level,
                text,
                note,
            } => Self::Log(LogEntry {
                server,
                at_ms: now_ms(),
                source,
                level: level.map(|l| l.to_string()),
                text: masking::urls_in(&text),
                note,
            }),
            ServerEvent::CatalogChanged { server } => {
                Self::Ready(Update::CatalogChanged { server })
            }
            ServerEvent::ResourceUpdated { server, uri } => {
                Self::Ready(Update::ResourceUpdated { server, uri })
            }
            ServerEvent::SignInWaiting { server, waiting } => {
                Self::Ready(Update::SignInWaiting { server, waiting })
            }
        }
    }
}

impl From<Update> for Relayed {
    fn from(update: Update) -> Self {
        Self::Ready(update)
    }
}

//! What the agents' service needs of the rest of the host, as one port: the configuration
//! and its edits, the running servers and their catalog, calls and reads through the gate
//! as the activity view lists them, the person's questions, the folders servers see, the
//! audit trail, the resources followed and the keyring. The desk implements it over its
//! parts; a test implements it in memory, with no server process and no window.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::connection::Progress;
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::Tool;
use tokio::sync::{broadcast, mpsc};

use super::AgentError;
use crate::explorer::Follower;
use crate::switches::ToolSwitch;
use crate::{AuditEntry, Update};
use switchboard_core::approvals::{Question, Settled};
use switchboard_core::audit::Record;
use switchboard_core::catalog::Offer;
use switchboard_core::config::{AgentConfig, Config};
use switchboard_core::decisions::Origin;
use switchboard_core::reads::Read;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{ServerEvent, ServerState};

/// A change to the configuration the agents' service makes: refused with its reason, or
/// written.
pub type ConfigChange = Box<dyn FnOnce(&mut Config) -> Result<(), AgentError> + Send>;

/// What a read does with the server's live session once the gate allowed it.
pub type Reading = Box<dyn FnOnce(Client) -> BoxFuture<'static, Result<Value, ClientError>> + Send>;

/// A tool call an agent makes: where, what, and what names it in the activity view.
pub struct AgentCall {
    pub server: String,
    pub tool: String,
    pub arguments: Map<String, Value>,
    pub token: String,
    /// Where the server's reports on the call go too, for the agent to follow them.
    pub report: Option<mpsc::Sender<Progress>>,
}

pub trait AgentsHost: Send + Sync + 'static {
    // The configuration.

    /// The configuration as last read.
    fn config(&self) -> Config;
    /// The agent of this name, as configured now (the gateway asks at each request: no
    /// copy of the whole configuration).
    fn agent(&self, name: &str) -> Option<AgentConfig>;
    /// Changes the configuration file (read afresh) and announces the agents changed.
    fn edit(&self, change: ConfigChange) -> BoxFuture<'_, Result<(), AgentError>>;
    /// Tells the window, and the agents' sessions, that the agents changed.
    fn agents_changed(&self);
    /// The updates an agent's session follows.
    fn updates(&self) -> broadcast::Receiver<Update>;
    /// The servers' events as their connections see them.
    fn server_events(&self) -> broadcast::Receiver<ServerEvent>;

    // The servers.

    /// Each server running or starting, with its state.
    fn states(&self) -> BTreeMap<String, ServerState>;
    /// What each running server offers anyone: its tools turned off for everyone left out.
    fn offers(&self) -> Vec<(String, Offer)>;
    /// The server and name of the tool the catalog names `id`, among those `may` lets through,
    /// of servers running now and not turned off for everyone.
    fn tool_named(&self, id: &str, may: &dyn Fn(&str, &str) -> bool) -> Option<(String, String)>;
    /// The tool `name` of `server`, as it lists it.
    fn tool(&self, server: &str, name: &str) -> Option<Tool>;
    /// Every tool `server` lists, with whether it is on for everyone.
    fn server_tools(&self, server: &str) -> Vec<ToolSwitch>;
    /// The live session with a running server.
    fn client(&self, server: &str) -> Option<Client>;

    // Calls and reads, through the gate.

    /// Calls a tool for `origin` through the gate, listed as a call under way meanwhile.
    fn call(&self, origin: Origin, call: AgentCall) -> BoxFuture<'_, Result<Value, AgentError>>;
    /// Reads for `origin` through the gate, listed as a call under way named `token`.
    fn read(
        &self,
        origin: Origin,
        server: &str,
        read: Read,
        token: String,
        reading: Reading,
    ) -> BoxFuture<'_, Result<Value, AgentError>>;
    /// Cancels a call under way; false if it had ended.
    fn cancel(&self, token: &str) -> bool;
    /// The tokens of the calls `server` is serving now.
    fn calls_served_by(&self, server: &str) -> Vec<String>;

    // Trust.

    /// Puts a question to the person, as `asker`.
    fn ask(&self, asker: &str, question: Question) -> BoxFuture<'_, Result<Settled, AgentError>>;
    /// Lets `server` see `folders` besides what it sees, those the person had not shared
    /// marked as offered by `agent`.
    fn share_offered(
        &self,
        agent: &str,
        server: &str,
        folders: Vec<std::path::PathBuf>,
    ) -> BoxFuture<'_, Result<(), AgentError>>;
    /// Forgets what the person allowed `agent`, and unshares the folders it alone offered.
    fn forget(&self, agent: &str) -> BoxFuture<'_, ()>;
    /// Keeps `record` in the audit trail.
    fn record(&self, record: Record) -> BoxFuture<'_, ()>;
    /// The most recent records asked by `asked_by`, newest first.
    fn asked_by(
        &self,
        asked_by: String,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<AuditEntry>, AgentError>>;
    /// The approval time-out the settings give.
    fn approval_timeout(&self) -> std::time::Duration;

    // Resources followed.

    fn follow(
        &self,
        who: Follower,
        server: &str,
        uri: &str,
    ) -> BoxFuture<'_, Result<(), AgentError>>;
    fn unfollow(
        &self,
        who: Follower,
        server: &str,
        uri: &str,
    ) -> BoxFuture<'_, Result<(), AgentError>>;
    fn follows(&self, who: Follower, server: &str, uri: &str) -> bool;
    fn followed_by(&self, who: Follower) -> Vec<(String, String)>;

    // The keyring.

    /// The person's secrets (the agents' tokens are a service of their own in it).
    fn secrets(&self) -> Result<Secrets, AgentError>;
}

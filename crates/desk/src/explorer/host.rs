//! What the explorer's service needs of the rest of the host, as one port: the servers'
//! configuration and live sessions, and the window's updates. The desk implements it over
//! its parts; a test implements it in memory with a server of its own in process.

use std::collections::BTreeMap;

use switchboard_mcp::client::Client;

use crate::Update;
use crate::switches::TurnedOff;
use switchboard_core::config::ServerConfig;
use switchboard_core::server_events::ServerState;

pub trait ExplorerHost: Send + Sync + 'static {
    /// The server of this name, as configured now.
    fn server(&self, name: &str) -> Option<ServerConfig>;
    /// The tools turned off for everyone now, by server.
    fn tools_off(&self) -> TurnedOff;
    /// Each server running or starting, with its state.
    fn running(&self) -> BTreeMap<String, ServerState>;
    /// The live session with a running server.
    fn client(&self, server: &str) -> Option<Client>;
    /// Tells the window (a call's progress, its end).
    fn announce(&self, update: Update);
}

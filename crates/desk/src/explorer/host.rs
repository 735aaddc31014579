//! What the explorer's service needs of the rest of the host, as one port: the servers'
//! configuration and live sessions, and the window's updates. The desk implements it over
//! its parts; a test implements it in memory with a server of its own in process.

use std::collections::BTreeMap;

use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;

use crate::Update;
use crate::switches::TurnedOff;
use switchboard_core::config::ServerConfig;
use switchboard_core::server_events::ServerState;
use switchboard_core::skills::SkillPin;
use switchboard_core::views::ViewPin;

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
    /// Where the calls that run as tasks are kept, if anywhere.
    fn task_book(&self) -> Option<crate::tasks::TaskBook> {
        None
    }
    /// The views shown so far, as pinned (a host that keeps none shows each as new).
    fn trusted_views(&self) -> Vec<ViewPin> {
        Vec::new()
    }
    /// The skills the person let models use, as pinned.
    fn trusted_skills(&self) -> Vec<SkillPin> {
        Vec::new()
    }
    /// Keeps `pin` in place of its view's earlier one; whether it is kept.
    fn pin_view(&self, pin: ViewPin) -> BoxFuture<'_, bool> {
        let _ = pin;
        Box::pin(async { false })
    }
}

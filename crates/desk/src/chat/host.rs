//! What the chat service needs of the rest of the host, as one port: the configuration
//! (the providers and models, the servers, the sampling settings) and a way to change it,
//! the tools the person turned off, the live sessions with the running servers, and the
//! window's updates. The desk implements it; a test can, in memory.

use switchboard_core::config::{Config, ServerConfig};
use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;

use super::ChatError;
use crate::Update;
use crate::switches::TurnedOff;

/// A change to the configuration the chat service makes: refused with its reason, or
/// written.
pub type ChatChange = Box<dyn FnOnce(&mut Config) -> Result<(), ChatError> + Send>;

pub trait ChatHost: Send + Sync + 'static {
    /// The configuration as last read.
    fn config(&self) -> Config;
    /// The server of this name, as configured now.
    fn server(&self, name: &str) -> Option<ServerConfig>;
    /// Changes the configuration file (read afresh), brings the servers in line with it and
    /// announces the servers changed.
    fn edit(&self, change: ChatChange) -> BoxFuture<'_, Result<(), ChatError>>;
    /// The tools turned off for everyone now, by server: never offered to a model.
    fn tools_off(&self) -> TurnedOff;
    /// The live session with a running server.
    fn client(&self, server: &str) -> Option<Client>;
    /// Tells the window (a step of a run, a message kept).
    fn announce(&self, update: Update);
}

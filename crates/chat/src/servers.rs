//! What a conversation needs of the running servers: their tools, and a way to reach
//! each one with what the gate pins trust to.

use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::Task;
use switchboard_mcp::types::skills::Skill;

use switchboard_core::catalog::{Catalog, CatalogTool};
use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::Origin;
use switchboard_core::gate::Callee;

use crate::reading::Readable;

/// The running servers, as a conversation's tool calls reach them. The desk implements
/// it over its host; tests over theirs.
pub trait Servers: Send + Sync {
    /// Every running server's tools (the catalog's).
    fn tools(&self) -> Vec<CatalogTool>;
    /// A running server's session and identity; `None` when it does not run.
    fn reach(&self, server: &str) -> Option<Reach>;
    /// What the model may read of the running servers: nothing unless said.
    fn readable(&self) -> Readable {
        Readable::default()
    }
    /// Whether the person let models use `skill` of `server` as it is now.
    fn skill_allowed(&self, server: &str, skill: &Skill) -> bool {
        let _ = (server, skill);
        false
    }
    /// A state of the task a model's call of `tool` of `server` became (asked by `asker`):
    /// kept where the host keeps tasks, if it does.
    fn task_seen<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        asker: &'a Origin,
        task: &'a Task,
    ) -> BoxFuture<'a, ()> {
        let _ = (server, tool, asker, task);
        Box::pin(async {})
    }
    /// How the task `task_id` of `server` a model's call became ended.
    fn task_ended<'a>(
        &'a self,
        server: &'a str,
        task_id: &'a str,
        outcome: Result<serde_json::Value, String>,
    ) -> BoxFuture<'a, ()> {
        let _ = (server, task_id, outcome);
        Box::pin(async {})
    }
    /// Pins `skill` of `server` as the person let models use it from now on.
    fn allow_skill<'a>(&'a self, server: &'a str, skill: &'a Skill) -> BoxFuture<'a, ()> {
        let _ = (server, skill);
        Box::pin(async {})
    }
}

/// A running server as a call reaches it.
#[derive(Clone)]
pub struct Reach {
    pub client: Client,
    /// How it is launched or reached now (`ServerConfig::identity`).
    pub identity: String,
    /// The person's word for it.
    pub trusted: bool,
}

impl Reach {
    pub fn of(client: Client, config: &ServerConfig) -> Self {
        Self {
            client,
            identity: config.identity(),
            trusted: config.is_trusted(),
        }
    }

    /// The server `name`, reached so, as the gate decides about it.
    pub fn callee<'a>(&self, name: &'a str) -> Callee<'a> {
        Callee {
            name,
            identity: self.identity.clone(),
            trusted: self.trusted,
        }
    }
}

/// A catalog, and a function from a server's name to its reach: enough for most hosts.
pub struct CatalogServers<F> {
    pub catalog: Catalog,
    pub reach: F,
}

impl<F> Servers for CatalogServers<F>
where
    F: Fn(&str) -> Option<Reach> + Send + Sync,
{
    fn tools(&self) -> Vec<CatalogTool> {
        self.catalog.tools()
    }

    fn reach(&self, server: &str) -> Option<Reach> {
        (self.reach)(server)
    }

    fn readable(&self) -> Readable {
        readable(&self.catalog)
    }
}

/// What the model may read of the servers in `catalog`: their resources and prompts.
pub fn readable(catalog: &Catalog) -> Readable {
    Readable {
        resources: catalog.resources(),
        prompts: catalog.prompts(),
        skills: catalog.skills(),
    }
}

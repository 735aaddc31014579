//! The host: every configured server under its own supervisor, reconciled against the
//! configuration so that a change touches only the servers it concerns.

use std::collections::BTreeMap;
use std::sync::Arc;

use switchboard_mcp::client::{Client, ClientHandler};
use tokio::sync::broadcast;
use tokio::task::JoinSet;

use std::path::PathBuf;

use crate::catalog::Catalog;
use crate::config::{Config, ServerConfig};
use crate::roots::{RootError, Roots};
use crate::secrets::Secrets;
use crate::supervisor::{HostEvent, ServerState, Shared, Supervisor};

/// Which servers a reconciliation touched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reconciled {
    pub started: Vec<String>,
    pub restarted: Vec<String>,
    pub stopped: Vec<String>,
}

/// Makes the handler that answers one server's requests (it asks the person).
type HandlerFor<H> = Box<dyn Fn(&str) -> Arc<H> + Send + Sync>;

pub struct Host<H> {
    shared: Shared,
    supervisors: BTreeMap<String, Supervisor>,
    handler_for: HandlerFor<H>,
}

const EVENT_CAPACITY: usize = 1024;

impl<H: ClientHandler> Host<H> {
    pub fn new(
        secrets: Secrets,
        handler_for: impl Fn(&str) -> Arc<H> + Send + Sync + 'static,
    ) -> Self {
        Self {
            shared: Shared {
                catalog: Catalog::default(),
                secrets,
                events: broadcast::channel(EVENT_CAPACITY).0,
                states: Arc::default(),
                clients: Arc::default(),
            },
            supervisors: BTreeMap::new(),
            handler_for: Box::new(handler_for),
        }
    }

    pub fn events(&self) -> broadcast::Receiver<HostEvent> {
        self.shared.events.subscribe()
    }

    pub fn catalog(&self) -> &Catalog {
        &self.shared.catalog
    }

    /// Every server's state, by name.
    pub fn states(&self) -> BTreeMap<String, ServerState> {
        self.shared
            .states
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The live session with a running server.
    pub fn client(&self, server: &str) -> Option<Client> {
        self.shared
            .clients
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(server)
            .cloned()
    }

    /// Brings the running servers in line with the configuration: new ones start, removed
    /// or disabled ones stop, changed ones restart, the rest are left alone. Servers start
    /// concurrently; stops are awaited together. A change of the host's defaults restarts
    /// the servers that take them.
    pub async fn reconcile(&mut self, config: &Config) -> Reconciled {
        let desired: BTreeMap<&String, ServerConfig> = config
            .servers
            .iter()
            .filter(|(_, s)| s.enabled)
            .map(|(name, s)| (name, s.with_defaults(&config.settings)))
            .collect();
        let mut done = Reconciled::default();
        let mut stopping = JoinSet::new();
        let running: Vec<String> = self.supervisors.keys().cloned().collect();
        for name in running {
            let changed = match desired.get(&name) {
                None => true,
                Some(wanted) => self
                    .supervisors
                    .get(&name)
                    .is_some_and(|s| s.config != *wanted),
            };
            if !changed {
                continue;
            }
            if let Some(supervisor) = self.supervisors.remove(&name) {
                stopping.spawn(supervisor.stop());
            }
            if desired.contains_key(&name) {
                done.restarted.push(name);
            } else {
                done.stopped.push(name);
            }
        }
        stopping.join_all().await;
        for (name, server) in desired {
            if self.supervisors.contains_key(name) {
                continue;
            }
            let handler = (self.handler_for)(name);
            let supervisor = Supervisor::start(name.clone(), server, handler, self.shared.clone());
            self.supervisors.insert(name.clone(), supervisor);
            if !done.restarted.contains(name) {
                done.started.push(name.clone());
            }
        }
        for name in &done.stopped {
            self.shared
                .states
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(name);
        }
        done
    }

    /// Stops one server and starts it again with the same configuration (a failed server
    /// gets a fresh start). False if no such server is configured and enabled.
    pub async fn restart(&mut self, name: &str) -> bool {
        let Some(supervisor) = self.supervisors.remove(name) else {
            return false;
        };
        let config = supervisor.config.clone();
        supervisor.stop().await;
        let handler = (self.handler_for)(name);
        let supervisor = Supervisor::start(name.to_owned(), config, handler, self.shared.clone());
        self.supervisors.insert(name.to_owned(), supervisor);
        true
    }

    /// What the host shares with its supervisors: readable without holding the host.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Lets `server` see exactly these folders, and tells it if that changed.
    pub async fn grant_roots(
        &self,
        roots: &Roots,
        server: &str,
        folders: &[PathBuf],
    ) -> Result<bool, RootError> {
        let changed = roots.grant(server, folders)?;
        if changed && let Some(client) = self.client(server) {
            // A server that cannot be told will read the new roots when it next asks.
            let _ = client.notify_roots_changed().await;
        }
        Ok(changed)
    }

    /// Stops every server gracefully.
    pub async fn shutdown(&mut self) {
        let mut stopping = JoinSet::new();
        for (_, supervisor) in std::mem::take(&mut self.supervisors) {
            stopping.spawn(supervisor.stop());
        }
        stopping.join_all().await;
    }
}

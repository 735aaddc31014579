//! The fleet: every configured server under its own supervisor, reconciled against the
//! configuration so that a change touches only the servers it concerns.

use std::collections::BTreeMap;
use std::sync::Arc;

use switchboard_mcp::client::{Client, ClientHandler};
use switchboard_mcp::types::Root;
use tokio::sync::broadcast;
use tokio::task::JoinSet;

use std::path::PathBuf;

use crate::catalog::Catalog;
use crate::config::{Config, ServerConfig};
use crate::roots::{RootError, Roots};
use crate::secrets::Secrets;
use crate::supervisor::{Retired, Shared, Supervisor};

use crate::server_events::{ServerEvent, ServerState};

/// Which servers a reconciliation touched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reconciled {
    pub started: Vec<String>,
    pub restarted: Vec<String>,
    pub stopped: Vec<String>,
}

/// Makes the handler that answers one server's requests (it asks the person).
type HandlerFor<H> = Box<dyn Fn(&str) -> Arc<H> + Send + Sync>;

pub struct Fleet<H> {
    shared: Shared,
    supervisors: BTreeMap<String, Supervisor>,
    /// Supervisors being stopped. A stop is never awaited under the host's lock (a server
    /// may take seconds to die); quitting waits for them.
    retiring: JoinSet<()>,
    handler_for: HandlerFor<H>,
}

impl<H: ClientHandler> Fleet<H> {
    pub fn new(
        secrets: Secrets,
        handler_for: impl Fn(&str) -> Arc<H> + Send + Sync + 'static,
    ) -> Self {
        Self {
            shared: Shared::new(secrets),
            supervisors: BTreeMap::new(),
            retiring: JoinSet::new(),
            handler_for: Box::new(handler_for),
        }
    }

    /// The folders shared with each server, which a sandboxed server is started with.
    pub fn seeing(mut self, roots: Roots) -> Self {
        self.shared.roots = roots;
        self
    }

    pub fn events(&self) -> broadcast::Receiver<ServerEvent> {
        self.shared.events()
    }

    pub fn catalog(&self) -> &Catalog {
        self.shared.catalog()
    }

    /// Every server's state, by name.
    pub fn states(&self) -> BTreeMap<String, ServerState> {
        self.shared.states()
    }

    /// The live session with a running server.
    pub fn client(&self, server: &str) -> Option<Client> {
        self.shared.client(server)
    }

    /// Brings the running servers in line with the configuration: new ones start, removed
    /// or disabled ones stop, changed ones restart, the rest are left alone. Nothing waits
    /// for a server to stop: a changed server's new run starts once its old one is gone. A
    /// change of the host's defaults restarts the servers that take them.
    pub fn reconcile(&mut self, config: &Config) -> Reconciled {
        let desired: BTreeMap<&String, ServerConfig> = config
            .servers
            .iter()
            .filter(|(_, s)| s.enabled)
            .map(|(name, s)| (name, s.with_defaults(&config.settings)))
            .collect();
        let mut done = Reconciled::default();
        let mut predecessors = BTreeMap::new();
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
            let Some(supervisor) = self.supervisors.remove(&name) else {
                continue;
            };
            let staying = desired.contains_key(&name);
            predecessors.insert(name.clone(), self.retire(&name, supervisor, !staying));
            if staying {
                done.restarted.push(name);
            } else {
                done.stopped.push(name);
            }
        }
        for (name, server) in desired {
            if self.supervisors.contains_key(name) {
                continue;
            }
            let handler = (self.handler_for)(name);
            let predecessor = predecessors.remove(name);
            let supervisor = Supervisor::start(
                name.clone(),
                server,
                handler,
                self.shared.clone(),
                predecessor,
            );
            self.supervisors.insert(name.clone(), supervisor);
            if !done.restarted.contains(name) {
                done.started.push(name.clone());
            }
        }
        done
    }

    /// Stops one server and starts it again with the same configuration (a failed server
    /// gets a fresh start). False if no such server is configured and enabled.
    pub fn restart(&mut self, name: &str) -> bool {
        let Some(supervisor) = self.supervisors.remove(name) else {
            return false;
        };
        let config = supervisor.config.clone();
        let predecessor = self.retire(name, supervisor, false);
        let handler = (self.handler_for)(name);
        let supervisor = Supervisor::start(
            name.to_owned(),
            config,
            handler,
            self.shared.clone(),
            Some(predecessor),
        );
        self.supervisors.insert(name.to_owned(), supervisor);
        true
    }

    /// Stops a supervisor in the background; a server that is `leaving` the configuration
    /// leaves no state behind.
    fn retire(&mut self, name: &str, supervisor: Supervisor, leaving: bool) -> Retired {
        while self.retiring.try_join_next().is_some() {}
        let (gone, retired) = Retired::new();
        let (states, name) = (self.shared.states.clone(), name.to_owned());
        self.retiring.spawn(async move {
            supervisor.stop().await;
            if leaving {
                let mut states = states.lock();
                // Unless the same name came back meanwhile.
                if matches!(states.get(&name), Some(ServerState::Stopped)) {
                    states.remove(&name);
                }
            }
            let _ = gone.send(true);
        });
        retired
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
        Ok(self
            .share(roots, server, crate::roots::roots_of(folders)?)
            .await)
    }

    /// Replaces what `server` may see with `chosen`; true if that changed, and then the
    /// server is told.
    pub async fn share(&self, roots: &Roots, server: &str, chosen: Vec<Root>) -> bool {
        roots.share(server, chosen, self.client(server)).await
    }

    /// Waits until every server being stopped is gone.
    pub async fn settled(&mut self) {
        while self.retiring.join_next().await.is_some() {}
    }

    /// Stops every server gracefully, and waits for those already stopping.
    pub async fn shutdown(&mut self) {
        for (_, supervisor) in std::mem::take(&mut self.supervisors) {
            self.retiring.spawn(supervisor.stop());
        }
        self.settled().await;
    }
}

//! The folders each server may see, kept in the configuration file: a server started
//! again sees what the person chose, without asking them again, as long as it is launched
//! as it was when they chose (see `switchboard_core::pins`); one launched otherwise is asked. The
//! folders an agent offered are marked with its name, and go when the agent is removed.

use std::path::PathBuf;

use switchboard_mcp::file_uri::file_path;
use switchboard_mcp::types::Root;

use crate::Desk;
use crate::DeskError;
use serde_json::json;
use switchboard_core::approvals::Answer;
use switchboard_core::audit::{Kind, Record};
use switchboard_core::config::{self, Config, ConfigError};
use switchboard_core::decisions::{DecidedBy, Origin, Outcome};
use switchboard_core::roots::{self, FolderGrant, Roots};

/// Gives each configured server the folders chosen for it as it is launched now. A folder
/// that is gone since is left out.
pub(super) fn grant_remembered(config: &Config, granted: &Roots) {
    for grant in &config.settings.shared_folders {
        let Some(server) = config.servers.get(&grant.server) else {
            continue;
        };
        if server.identity() != grant.identity {
            continue;
        }
        let present: Vec<_> = grant
            .folders
            .iter()
            .filter(|f| f.is_dir())
            .cloned()
            .collect();
        match roots::roots_of(&present) {
            Ok(chosen) => {
                granted.set(&grant.server, chosen);
            }
            Err(e) => tracing::warn!("the folders chosen for {}: {e}", grant.server),
        }
    }
}

impl Desk {
    /// Keeps the person's choice of folders for `server` in the file; those an agent
    /// offered stay marked as its own while the server sees them.
    pub(super) async fn remember_folders(&self, server: &str, chosen: &[Root]) {
        let Ok(server_config) = self.server_config(server) else {
            return;
        };
        let mut grant = FolderGrant::of(server, server_config.identity(), chosen);
        self.change_folders(move |grants| {
            if let Some(before) = grants.iter().find(|g| g.server == grant.server) {
                grant.keep_marks_of(before);
            }
            grants.retain(|g| g.server != grant.server);
            grants.push(grant);
        })
        .await;
    }

    /// Marks `folders`, which `server` sees now, as `agent`'s offer.
    pub(super) async fn mark_offered(&self, server: &str, agent: &str, folders: &[PathBuf]) {
        let (server, agent, folders) = (server.to_owned(), agent.to_owned(), folders.to_vec());
        self.change_folders(move |grants| {
            for grant in grants.iter_mut().filter(|g| g.server == server) {
                grant.offered(&agent, &folders);
            }
        })
        .await;
    }

    /// The folders `server` sees now that no agent offered: the person's own.
    pub(super) fn own_folders(&self, server: &str) -> Vec<PathBuf> {
        let config = self.config();
        let grant = config
            .settings
            .shared_folders
            .iter()
            .find(|g| g.server == server);
        self.inner
            .roots
            .of(server)
            .iter()
            .filter_map(|root| file_path(&root.uri))
            .filter(|folder| !grant.is_some_and(|g| g.by_an_agent(folder)))
            .collect()
    }

    /// Unshares from every server the folders `agent` alone offered (it was removed): each
    /// server that saw them is told, and the audit trail records it.
    pub(super) async fn withdraw_offered_folders(&self, agent: &str) {
        let offered_by = agent.to_owned();
        let withdrawn = self
            .change_folders(move |grants| {
                let mut withdrawn: Vec<(String, Vec<PathBuf>)> = Vec::new();
                for grant in grants.iter_mut() {
                    let gone = grant.withdraw(&offered_by);
                    if !gone.is_empty() {
                        withdrawn.push((grant.server.clone(), gone));
                    }
                }
                withdrawn
            })
            .await;
        for (server, gone) in withdrawn.into_iter().flatten() {
            if let Some(seen) = self.inner.roots.chosen(&server) {
                let left: Vec<Root> = seen
                    .into_iter()
                    .filter(|root| file_path(&root.uri).is_none_or(|f| !gone.contains(&f)))
                    .collect();
                let host = self.inner.host.lock().await;
                host.share(&self.inner.roots, &server, left).await;
            }
            let removed = DecidedBy::AgentRemoved;
            let record = folders_record(agent, &server, &gone, "withdrawn", removed);
            if let Err(e) = self.inner.gate.audit().record(record).await {
                tracing::error!("{e}");
            }
        }
    }

    /// The person's answer to an agent's offer of its folders: those the servers may see
    /// (none is an answer too).
    pub fn answer_agent_roots(
        &self,
        id: u64,
        agent: &str,
        folders: &[PathBuf],
    ) -> Result<(), DeskError> {
        let chosen = roots::roots_of(folders)?;
        self.answer(id, agent, Answer::Roots(chosen))
    }

    /// Forgets what was chosen for `server` (removed, or renamed).
    pub(super) async fn forget_folders(&self, server: &str) {
        let server = server.to_owned();
        self.change_folders(move |grants| grants.retain(|g| g.server != server))
            .await;
    }

    /// Changes the folders chosen as the file holds them now, off the async threads; what
    /// `change` gave back, once written (unwritten, the choice holds until quit).
    async fn change_folders<T: Send + 'static>(
        &self,
        change: impl FnOnce(&mut Vec<FolderGrant>) -> T + Send + 'static,
    ) -> Option<T> {
        if self.config_problem().is_some() {
            // A file that does not read is never written: the choice holds until quit.
            return None;
        }
        let _editing = self.inner.edits.lock().await;
        let written = config::update_off_thread(self.inner.config_path.clone(), move |config| {
            Ok::<_, ConfigError>(change(&mut config.settings.shared_folders))
        })
        .await;
        match written {
            Ok((config, gave)) => {
                self.inner.loaded.lock().config = config;
                Some(gave)
            }
            Err(e) => {
                tracing::error!("the folders chosen hold until quit: {e}");
                None
            }
        }
    }
}

/// The audit record of what became of the folders `agent` offered `server`.
pub(crate) fn folders_record(
    agent: &str,
    server: &str,
    folders: &[PathBuf],
    decision: &str,
    decided_by: DecidedBy,
) -> Record {
    let offered_by = Origin::Agent {
        name: agent.to_owned(),
    };
    Record {
        kind: Kind::Roots,
        server: server.to_owned(),
        subject: format!("roots offered by {offered_by}"),
        detail: json!({ "folders": folders }),
        decision: decision.to_owned(),
        decided_by,
        outcome: Outcome::Unknown,
        duration_ms: None,
    }
}

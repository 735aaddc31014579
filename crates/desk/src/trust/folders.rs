//! The folders each server may see, kept in the configuration file: a server started
//! again sees what the person chose, without asking them again, as long as it is launched
//! as it was when they chose (see `switchboard_core::pins`); one launched otherwise is asked. The
//! folders an agent offered are marked with its name, and go when the agent is removed.

use std::path::PathBuf;

use switchboard_mcp::file_uri::file_path;
use switchboard_mcp::types::Root;

use std::convert::Infallible;

use super::{Trust, TrustError};
use crate::given::Given;
use serde_json::json;
use switchboard_core::approvals::Answer;
use switchboard_core::audit::{Kind, Record};
use switchboard_core::config::Config;
use switchboard_core::decisions::{DecidedBy, Origin, Outcome};
use switchboard_core::roots::{self, FolderGrant, Roots};

/// Gives each configured server the folders chosen for it as it is launched now. A folder
/// that is gone since is left out.
pub(crate) fn grant_remembered(config: &Config, granted: &Roots) {
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
                granted.mark_read_only(&grant.server, grant.read_only.clone());
            }
            Err(e) => tracing::warn!("the folders chosen for {}: {e}", grant.server),
        }
    }
}

impl Trust {
    /// Keeps the person's choice of folders for `server` in the file; those an agent
    /// offered stay marked as its own while the server sees them.
    pub(crate) async fn remember_folders(&self, server: &str, chosen: &[Root]) {
        let Some(server_config) = self.host.config().servers.get(server).cloned() else {
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

    /// Lets `server` only read `folder` of those shared with it, or change it again: in its
    /// sandbox (it starts again to bind it so). Kept with the person's choice of folders.
    pub async fn set_read_only(
        &self,
        server: &str,
        folder: &std::path::Path,
        read_only: bool,
    ) -> Result<(), TrustError> {
        if !self.roots.folders(server).iter().any(|f| f == folder) {
            return Err(TrustError::NotShared {
                server: server.to_owned(),
                folder: folder.display().to_string(),
            });
        }
        let (server, folder) = (server.to_owned(), folder.to_owned());
        let marked = self
            .change_folders(move |grants| {
                let grant = grants.iter_mut().find(|g| g.server == server)?;
                grant.read_only.retain(|f| *f != folder);
                if read_only {
                    grant.read_only.push(folder);
                }
                Some((server, grant.read_only.clone()))
            })
            .await
            .flatten();
        if let Some((server, marked)) = marked {
            self.roots.mark_read_only(&server, marked);
        }
        Ok(())
    }

    /// Marks `folders`, which `server` sees now, as `agent`'s offer.
    pub(crate) async fn mark_offered(&self, server: &str, agent: &str, folders: &[PathBuf]) {
        let (server, agent, folders) = (server.to_owned(), agent.to_owned(), folders.to_vec());
        self.change_folders(move |grants| {
            for grant in grants.iter_mut().filter(|g| g.server == server) {
                grant.offered(&agent, &folders);
            }
        })
        .await;
    }

    /// The folders `server` sees now that no agent offered: the person's own.
    pub(crate) fn own_folders(&self, server: &str) -> Vec<PathBuf> {
        let config = self.host.config();
        let grant = config
            .settings
            .shared_folders
            .iter()
            .find(|g| g.server == server);
        self.roots
            .folders(server)
            .into_iter()
            .filter(|folder| !grant.is_some_and(|g| g.by_an_agent(folder)))
            .collect()
    }

    /// Unshares from every server the folders `agent` alone offered (it was removed): each
    /// server that saw them is told, and the audit trail records it.
    pub(crate) async fn withdraw_offered_folders(&self, agent: &str) {
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
            if let Some(seen) = self.roots.chosen(&server) {
                let left: Vec<Root> = seen
                    .into_iter()
                    .filter(|root| file_path(&root.uri).is_none_or(|f| !gone.contains(&f)))
                    .collect();
                let session = self.host.client(&server);
                self.roots.share(&server, left, session).await;
            }
            let removed = DecidedBy::AgentRemoved;
            let record = folders_record(agent, &server, &gone, "withdrawn", removed);
            if let Err(e) = self.gate.audit().record(record).await {
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
    ) -> Result<(), TrustError> {
        let chosen = roots::roots_of(folders)?;
        self.answer(id, agent, Answer::Roots(chosen))
    }

    /// Forgets what was chosen for `server` (removed, or renamed).
    pub(crate) async fn forget_folders(&self, server: &str) {
        let server = server.to_owned();
        self.change_folders(move |grants| grants.retain(|g| g.server != server))
            .await;
    }

    /// Changes the folders chosen as the file holds them now (see
    /// [`TrustHost::edit_folders`]); what `change` gave back, once written.
    async fn change_folders<T: Send + 'static>(
        &self,
        change: impl FnOnce(&mut Vec<FolderGrant>) -> T + Send + 'static,
    ) -> Option<T> {
        let gave = Given::new();
        let giving = gave.keeping(move |grants| Ok::<_, Infallible>(change(grants)));
        let written = self
            .host
            .edit_folders(Box::new(move |grants| {
                let Ok(()) = giving(grants);
            }))
            .await;
        written.then(|| gave.take()).flatten()
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

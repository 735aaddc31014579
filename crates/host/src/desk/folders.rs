//! The folders each server may see, kept in the configuration file: a server started
//! again sees what the person chose, without asking them again, as long as it is launched
//! as it was when they chose (see `crate::pins`); one launched otherwise is asked.

use switchboard_mcp::types::Root;

use super::{Desk, lock};
use crate::config::{self, Config, ConfigError};
use crate::pins;
use crate::roots::{self, FolderGrant, Roots};

/// Gives each configured server the folders chosen for it as it is launched now. A folder
/// that is gone since is left out.
pub(super) fn grant_remembered(config: &Config, granted: &Roots) {
    for grant in &config.settings.shared_folders {
        let Some(server) = config.servers.get(&grant.server) else {
            continue;
        };
        if pins::identity(server) != grant.identity {
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
    /// Keeps the person's choice of folders for `server` in the file.
    pub(super) async fn remember_folders(&self, server: &str, chosen: &[Root]) {
        let Ok(server_config) = self.server_config(server) else {
            return;
        };
        let grant = FolderGrant::of(server, pins::identity(&server_config), chosen);
        self.change_folders(|grants| {
            grants.retain(|g| g.server != server);
            grants.push(grant);
        })
        .await;
    }

    /// Forgets what was chosen for `server` (removed, or renamed).
    pub(super) async fn forget_folders(&self, server: &str) {
        self.change_folders(|grants| grants.retain(|g| g.server != server))
            .await;
    }

    async fn change_folders(&self, change: impl FnOnce(&mut Vec<FolderGrant>)) {
        if self.config_problem().is_some() {
            // A file that does not read is never written: the choice holds until quit.
            return;
        }
        let _editing = self.inner.edits.lock().await;
        let written = config::update(&self.inner.config_path, |config| {
            change(&mut config.settings.shared_folders);
            Ok::<_, ConfigError>(())
        });
        match written {
            Ok(config) => lock(&self.inner.loaded).config = config,
            Err(e) => tracing::error!("the folders chosen hold until quit: {e}"),
        }
    }
}

//! The configuration file, watched: a change made by hand (or by another program) is
//! applied once saved: servers reconciled, standing rules read again. A file that no
//! longer reads is reported, untouched, while the last good configuration keeps running.
//!
//! `notify` watches the folder rather than the file: a save that replaces the file (as
//! many editors and Switchboard itself do) would end a watch on the file itself. A file
//! that is a link into another folder (a dotfiles repository) is watched there too, where
//! it is edited.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::{Desk, Update};
use switchboard_core::config;

/// A file's folder (`.` for a bare name) and its name.
fn in_folder(path: &Path) -> Option<(PathBuf, OsString)> {
    let name = path.file_name()?.to_owned();
    let folder = path.parent().filter(|d| !d.as_os_str().is_empty());
    Some((folder.map_or_else(|| ".".into(), ToOwned::to_owned), name))
}

/// How long a file must be left alone before it is read: a save often comes as several
/// events (truncated, written, renamed), and the file between them is half written.
const SETTLE: Duration = Duration::from_millis(100);

impl Desk {
    /// Follows the configuration file until the desk is gone.
    pub(super) fn watch_config(&self) -> notify::Result<()> {
        let path = self.inner.config_path.clone();
        let Some(link) = in_folder(&path) else {
            return Ok(());
        };
        let mut files = vec![link];
        let target = std::fs::canonicalize(&path)
            .ok()
            .and_then(|t| in_folder(&t));
        files.extend(target.filter(|target| *target != files[0]));
        let watched: Vec<PathBuf> = files
            .iter()
            .map(|(folder, name)| folder.join(name))
            .collect();
        // One change waiting is enough: it reads the file as it is by then.
        let (changed, mut changes) = mpsc::channel(1);
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let touches = |event: &notify::Event| {
                    !matches!(event.kind, EventKind::Access(_))
                        && event.paths.iter().any(|p| watched.contains(p))
                };
                if event.as_ref().is_ok_and(touches) {
                    let _ = changed.try_send(());
                }
            })?;
        for (folder, _) in &files {
            watcher.watch(folder, RecursiveMode::NonRecursive)?;
        }
        let desk = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let _watching = watcher;
            while changes.recv().await.is_some() {
                while let Ok(Some(())) = tokio::time::timeout(SETTLE, changes.recv()).await {}
                let Some(inner) = desk.upgrade() else { return };
                Desk { inner }.reload().await;
            }
        });
        Ok(())
    }

    /// Reads the file again and brings everything in line with it, or says why it did not
    /// read. What the desk wrote itself (its servers, the rules the gate holds) reads back
    /// as it is, and changes nothing.
    async fn reload(&self) {
        let _editing = self.inner.edits.lock().await;
        let config = match config::load(&self.inner.config_path) {
            Ok(config) => config,
            Err(e) => {
                let problem = Some(e.to_string());
                let new = {
                    let mut loaded = self.inner.loaded.lock();
                    let new = loaded.problem != problem;
                    loaded.problem.clone_from(&problem);
                    new
                };
                if new {
                    self.announce(Update::ConfigChanged { problem });
                }
                return;
            }
        };
        self.inner.gate.follow_settings(&config.settings);
        self.inner
            .shared
            .sign_ins()
            .follow_settings(&config.settings);
        let before = {
            let mut loaded = self.inner.loaded.lock();
            let mut known = loaded.config.clone();
            known
                .settings
                .tool_rules
                .clone_from(&config.settings.tool_rules);
            let rules_known = self.inner.gate.holds_rules(&config.settings.tool_rules);
            if config == known && rules_known && loaded.problem.is_none() {
                loaded.config = config;
                return;
            }
            loaded.problem = None;
            std::mem::replace(&mut loaded.config, config.clone())
        };
        self.withdraw_folders(&before, &config);
        self.inner
            .gate
            .reload_rules(config.settings.tool_rules.clone());
        self.inner.host.lock().await.reconcile(&config);
        self.announce(Update::ConfigChanged { problem: None });
        self.announce(Update::ServersChanged);
        // Tools turned off or on change what is offered, with no restart to say so.
        for (name, now) in &config.servers {
            let was = before.servers.get(name).map(|s| &s.disabled_tools);
            if was.is_some_and(|was| *was != now.disabled_tools) {
                self.announce(Update::CatalogChanged {
                    server: name.clone(),
                });
            }
        }
    }
}

//! The configuration file, watched: a change made by hand (or by another program) is
//! applied once saved: servers reconciled, standing rules read again. A file that no
//! longer reads is reported, untouched, while the last good configuration keeps running.
//!
//! The folder is watched rather than the file: a save that replaces the file (as many
//! editors and Switchboard itself do) would end a watch on the file itself. A file that is
//! a link into another folder (a dotfiles repository) is watched there too, where it is
//! edited.
//!
//! `inotify` rather than the cross-platform `notify`: the audit log and the conversations
//! live in the same folder, and SQLite writes to them on every call; `notify` asks the
//! kernel for every write and every open, which woke its thread on each call. Asking for
//! saves only (a file closed after writing, moved in or out, made or removed) leaves the
//! databases' writes unheard.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};

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

/// What a save of a file in the folder does: written and closed, moved in or out, made or
/// removed. Not a write in progress, and not an open.
const SAVES: WatchMask = WatchMask::CLOSE_WRITE
    .union(WatchMask::MOVED_TO)
    .union(WatchMask::MOVED_FROM)
    .union(WatchMask::CREATE)
    .union(WatchMask::DELETE);

impl Desk {
    /// Follows the configuration file until the desk is gone.
    pub(super) fn watch_config(&self) -> std::io::Result<()> {
        let path = self.inner.config_path.clone();
        let Some(link) = in_folder(&path) else {
            return Ok(());
        };
        let mut files = vec![link];
        let target = std::fs::canonicalize(&path)
            .ok()
            .and_then(|t| in_folder(&t));
        files.extend(target.filter(|target| *target != files[0]));
        let inotify = Inotify::init()?;
        // The file's name in each folder watched (one watch for a folder named twice).
        let watched: Vec<(WatchDescriptor, OsString)> = files
            .into_iter()
            .map(|(folder, name)| Ok((inotify.watches().add(&folder, SAVES)?, name)))
            .collect::<std::io::Result<_>>()?;
        let mut events = inotify.into_event_stream([0; 4096])?;
        // Only the file's own saves count: the folder's other files are saved too.
        let mut saved = async move || {
            while let Some(event) = events.next().await {
                let event = match event {
                    Ok(event) => event,
                    Err(e) => {
                        tracing::warn!("the configuration file is no longer watched: {e}");
                        return None;
                    }
                };
                let ours = |(wd, name): &(WatchDescriptor, OsString)| {
                    *wd == event.wd && event.name.as_ref() == Some(name)
                };
                // Events the kernel had no room for may have held a save.
                if event.mask.contains(EventMask::Q_OVERFLOW) || watched.iter().any(ours) {
                    return Some(());
                }
            }
            None
        };
        let desk = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            while saved().await.is_some() {
                // One reload for a burst: it reads the file as it is by then.
                while let Ok(Some(())) = tokio::time::timeout(SETTLE, saved()).await {}
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
                let problem = Some(e.problem());
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

//! The change that adds Switchboard to an app's file: planned (the text now, the text
//! proposed, a unified diff) and then written exactly as planned, or not at all when the
//! file changed in between. The diff is `similar`'s (the diff library of `insta` and
//! many others), in the unified format a person knows from `git diff`.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::edit::{self, EditError};
use super::{AgentApp, Bridge, Home, KEY};
use crate::atomic_file;

/// What adding Switchboard to an app's file changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SetupPlan {
    pub app: AgentApp,
    /// The app's name as a person knows it.
    pub app_name: String,
    /// The agent the entry reaches Switchboard as.
    pub agent: String,
    /// The file.
    pub path: String,
    /// Whether the file exists now; it is created otherwise.
    pub exists: bool,
    /// What the file holds now (empty when it does not exist).
    pub current: String,
    /// What the file will hold.
    pub proposed: String,
    /// The change, as a unified diff. (What the person does next for the app to use the
    /// entry, the window says by the app.)
    pub diff: String,
}

/// Why an app's configuration was not changed: by kind, the paths and the system's words
/// as they came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SetupError {
    #[error("{} cannot be changed: {error}; fix or remove it first (the file was left as it is)", path.display())]
    Unreadable { path: PathBuf, error: EditError },
    #[error(
        "{app} already reaches Switchboard as {agent:?}: {} holds that entry; there is nothing to write",
        path.display()
    )]
    AlreadySetUp {
        app: &'static str,
        agent: String,
        path: PathBuf,
    },
    #[error("{} changed since the change was shown; nothing was written: look at the change again", path.display())]
    Changed { path: PathBuf },
    #[error("could not read {}: {error}", path.display())]
    Read { path: PathBuf, error: String },
    #[error("could not write {}: {error}; the file was left as it was", path.display())]
    Write { path: PathBuf, error: String },
    #[error("there is no home folder to find the apps' configuration in")]
    NoHome,
    #[error("the change did not finish: {0}")]
    Interrupted(String),
}

/// The file as it is now: `None` when it does not exist.
fn read(path: &Path) -> Result<Option<String>, SetupError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(SetupError::Read {
            path: path.to_owned(),
            error: error.to_string(),
        }),
    }
}

/// The change that makes `app` reach Switchboard as `agent` through `bridge`, in its file
/// under `home`; nothing is written.
pub fn plan(
    home: &Home,
    app: AgentApp,
    bridge: &Bridge,
    agent: &str,
) -> Result<SetupPlan, SetupError> {
    let path = app.path(home);
    let current = read(&path)?;
    let entry = app.entry(bridge, agent);
    let proposed = edit::with_entry(
        current.as_deref(),
        app.syntax(),
        app.servers_key(),
        KEY,
        &entry,
    )
    .map_err(|error| SetupError::Unreadable {
        path: path.clone(),
        error,
    })?
    .ok_or_else(|| SetupError::AlreadySetUp {
        app: app.name(),
        agent: agent.to_owned(),
        path: path.clone(),
    })?;
    let shown = path.display().to_string();
    let exists = current.is_some();
    let current = current.unwrap_or_default();
    let diff = similar::TextDiff::from_lines(&current, &proposed)
        .unified_diff()
        .context_radius(3)
        .header(if exists { &shown } else { "/dev/null" }, &shown)
        .to_string();
    Ok(SetupPlan {
        app,
        app_name: app.name().to_owned(),
        agent: agent.to_owned(),
        path: shown,
        exists,
        current,
        proposed,
        diff,
    })
}

/// Writes the planned text, if the file still holds what the plan read.
pub fn apply(plan: &SetupPlan) -> Result<(), SetupError> {
    let path = PathBuf::from(&plan.path);
    let now = read(&path)?;
    if now.as_deref() == Some(plan.proposed.as_str()) {
        return Err(SetupError::AlreadySetUp {
            app: plan.app.name(),
            agent: plan.agent.clone(),
            path,
        });
    }
    let read_then = plan.exists.then_some(plan.current.as_str());
    if now.as_deref() != read_then {
        return Err(SetupError::Changed { path });
    }
    atomic_file::replace(&path, plan.proposed.as_bytes()).map_err(|error| SetupError::Write {
        path,
        error: error.to_string(),
    })
}

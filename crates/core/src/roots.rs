//! Roots: the folders the person lets each server see. Nothing is exposed before consent;
//! every root is the canonical `file://` URI of a folder that exists.

use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use switchboard_mcp::client::Client;
use switchboard_mcp::file_uri::file_uri;
use switchboard_mcp::types::Root;

pub use crate::sandbox::Shared;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RootError {
    #[error("{}: {reason}", path.display())]
    Unusable { path: PathBuf, reason: Unusable },
}

/// Why a path cannot be shared as a folder, by kind for a face to say in its language.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Unusable {
    #[error("no such folder")]
    NotFound,
    #[error("not a folder")]
    NotAFolder,
    /// The system's words (a folder that may not be read, say).
    #[error("{text}")]
    Said { text: String },
}

/// The folders a server may see, kept in the configuration: for the server as it was
/// launched when the person chose them (`ServerConfig::identity`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FolderGrant {
    pub server: String,
    pub identity: String,
    pub folders: Vec<PathBuf>,
    /// Those of `folders` that agents offered (and the person had not shared with the server
    /// before), by agent: an agent removed takes them along.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub offered_by: BTreeMap<String, Vec<PathBuf>>,
    /// Those of `folders` the person shared read-only: in its sandbox the server may read
    /// them and change nothing there (MCP's roots carry no such mark; the sandbox holds it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_only: Vec<PathBuf>,
}

impl FolderGrant {
    /// The grant these roots make for `server` launched as `identity`.
    pub fn of(server: &str, identity: String, roots: &[Root]) -> Self {
        let folders = folders_of(roots);
        Self {
            server: server.to_owned(),
            identity,
            folders,
            offered_by: BTreeMap::new(),
            read_only: Vec::new(),
        }
    }

    /// Marks `folders` as `agent`'s offer, those among the grant's.
    pub fn offered(&mut self, agent: &str, folders: &[PathBuf]) {
        let marked = self.offered_by.entry(agent.to_owned()).or_default();
        for folder in folders {
            if self.folders.contains(folder) && !marked.contains(folder) {
                marked.push(folder.clone());
            }
        }
        self.offered_by.retain(|_, folders| !folders.is_empty());
    }

    /// Whether an agent's offer brought `folder`.
    pub fn by_an_agent(&self, folder: &Path) -> bool {
        self.offered_by
            .values()
            .any(|folders| folders.iter().any(|f| f == folder))
    }

    /// Takes away what `agent` alone offered; the folders taken.
    pub fn withdraw(&mut self, agent: &str) -> Vec<PathBuf> {
        let Some(offered) = self.offered_by.remove(agent) else {
            return Vec::new();
        };
        let gone: Vec<PathBuf> = offered
            .into_iter()
            .filter(|folder| !self.by_an_agent(folder))
            .collect();
        self.folders.retain(|folder| !gone.contains(folder));
        gone
    }

    /// Keeps the marks of the folders still among `folders` (after the person changed them).
    pub fn keep_marks_of(&mut self, before: &Self) {
        for (agent, folders) in &before.offered_by {
            self.offered(agent, folders);
        }
        self.read_only = before
            .read_only
            .iter()
            .filter(|folder| self.folders.contains(folder))
            .cloned()
            .collect();
    }
}

/// The roots each server may see, by server name.
#[derive(Debug, Clone)]
pub struct Roots {
    granted: Arc<Mutex<HashMap<String, Vec<Root>>>>,
    /// The folders of each server's the person shared read-only.
    read_only: Arc<Mutex<HashMap<String, Vec<PathBuf>>>>,
    /// Marked on every change: a sandboxed server binds its roots as it starts, and starts
    /// again to bind new ones.
    changed: Arc<tokio::sync::watch::Sender<()>>,
}

impl Default for Roots {
    fn default() -> Self {
        Self {
            granted: Arc::default(),
            read_only: Arc::default(),
            changed: Arc::new(tokio::sync::watch::channel(()).0),
        }
    }
}

impl Roots {
    /// Says each change from now on (of any server's roots).
    pub fn changes(&self) -> tokio::sync::watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// The folders `server` may see.
    pub fn folders(&self, server: &str) -> Vec<PathBuf> {
        folders_of(&self.of(server))
    }

    /// The folders `server` may see, as its sandbox binds them: written, or read only.
    pub fn shared(&self, server: &str) -> Shared {
        let marked = self
            .read_only
            .lock()
            .get(server)
            .cloned()
            .unwrap_or_default();
        let (read, written) = self
            .folders(server)
            .into_iter()
            .partition(|folder| marked.contains(folder));
        Shared { written, read }
    }

    /// Marks which of `server`'s folders it may only read (the others it may change, in its
    /// sandbox); true if that changed, and a sandboxed server starts again to bind them so.
    pub fn mark_read_only(&self, server: &str, folders: Vec<PathBuf>) -> bool {
        let before = self
            .read_only
            .lock()
            .insert(server.to_owned(), folders.clone());
        let changed = before.unwrap_or_default() != folders;
        if changed {
            self.changed.send_replace(());
        }
        changed
    }

    fn granted(&self) -> parking_lot::MutexGuard<'_, HashMap<String, Vec<Root>>> {
        self.granted.lock()
    }

    /// What `server` may see: nothing until the person chose.
    pub fn of(&self, server: &str) -> Vec<Root> {
        self.chosen(server).unwrap_or_default()
    }

    /// What the person chose for `server`, or `None` if they were never asked.
    pub fn chosen(&self, server: &str) -> Option<Vec<Root>> {
        self.granted().get(server).cloned()
    }

    /// Replaces what `server` may see; true if that changed (the server must then be told
    /// with `notifications/roots/list_changed`). Every folder is checked first: one that
    /// does not exist fails the whole change.
    pub fn grant(&self, server: &str, folders: &[PathBuf]) -> Result<bool, RootError> {
        Ok(self.set(server, roots_of(folders)?))
    }

    /// Replaces what `server` may see with `chosen`; true if that changed, and then the
    /// server is told on `session`, its live session if it runs.
    pub async fn share(&self, server: &str, chosen: Vec<Root>, session: Option<Client>) -> bool {
        let changed = self.set(server, chosen);
        if changed && let Some(client) = session {
            // A server that cannot be told will read the new roots when it next asks.
            let _ = client.notify_roots_changed().await;
        }
        changed
    }

    /// Replaces what `server` may see with roots made by `roots_of`; true if that changed.
    pub fn set(&self, server: &str, roots: Vec<Root>) -> bool {
        let before = self.granted().insert(server.to_owned(), roots.clone());
        let changed = before.unwrap_or_default() != roots;
        if changed {
            self.changed.send_replace(());
        }
        changed
    }

    /// The servers the person chose folders for.
    pub fn servers(&self) -> Vec<String> {
        self.granted().keys().cloned().collect()
    }

    /// Withdraws everything from `server`; true if it could see anything.
    pub fn revoke(&self, server: &str) -> bool {
        self.read_only.lock().remove(server);
        let revoked = self.granted().remove(server).is_some_and(|r| !r.is_empty());
        if revoked {
            self.changed.send_replace(());
        }
        revoked
    }
}

/// The folders these roots name; a root that is not a folder on this machine names none.
pub fn folders_of(roots: &[Root]) -> Vec<PathBuf> {
    roots
        .iter()
        .filter_map(|root| switchboard_mcp::file_uri::file_path(&root.uri))
        .collect()
}

/// The roots these folders make, each once, without granting them to anyone yet; a
/// folder that does not exist (or is a file) fails them all.
pub fn roots_of(folders: &[PathBuf]) -> Result<Vec<Root>, RootError> {
    let mut roots = Vec::with_capacity(folders.len());
    for folder in folders {
        let root = root_of(folder)?;
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    Ok(roots)
}

fn root_of(folder: &Path) -> Result<Root, RootError> {
    let unusable = |reason| RootError::Unusable {
        path: folder.to_owned(),
        reason,
    };
    let canonical = folder.canonicalize().map_err(|e| {
        unusable(match e.kind() {
            std::io::ErrorKind::NotFound => Unusable::NotFound,
            _ => Unusable::Said {
                text: e.to_string(),
            },
        })
    })?;
    if !canonical.is_dir() {
        return Err(unusable(Unusable::NotAFolder));
    }
    let name = canonical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    Ok(Root::new(file_uri(&canonical), name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_exposed_before_consent() {
        assert!(Roots::default().of("any").is_empty());
    }

    #[test]
    fn granted_folders_become_canonical_file_uris() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("my project");
        std::fs::create_dir(&project).unwrap();
        let roots = Roots::default();
        // A path with `..` and a duplicate resolve to one canonical root.
        let winding = project.join("../my project");
        assert!(roots.grant("files", &[winding, project.clone()]).unwrap());
        let granted = roots.of("files");
        assert_eq!(granted.len(), 1);
        let canonical = project.canonicalize().unwrap();
        assert_eq!(
            granted[0].uri,
            format!("file://{}", canonical.display()).replace(' ', "%20")
        );
        assert_eq!(granted[0].name.as_deref(), Some("my project"));
        assert!(
            roots.of("other").is_empty(),
            "one server's roots are not another's"
        );
        // The same choice again changes nothing: no notification is due.
        assert!(!roots.grant("files", &[project]).unwrap());
        assert!(roots.revoke("files"));
        assert!(roots.of("files").is_empty());
    }

    #[test]
    fn an_agent_withdraws_only_what_it_alone_brought() {
        let (own, both, alone) = (
            PathBuf::from("/own"),
            PathBuf::from("/both"),
            PathBuf::from("/alone"),
        );
        let mut grant = FolderGrant {
            server: "files".into(),
            identity: "id".into(),
            folders: vec![own.clone(), both.clone(), alone.clone()],
            offered_by: BTreeMap::new(),
            read_only: Vec::new(),
        };
        grant.offered(
            "Cursor",
            &[both.clone(), alone.clone(), "/elsewhere".into()],
        );
        grant.offered("Zed", std::slice::from_ref(&both));
        assert_eq!(grant.withdraw("Cursor"), [alone]);
        assert_eq!(grant.folders, [own.clone(), both.clone()]);
        assert_eq!(grant.withdraw("Cursor"), Vec::<PathBuf>::new());
        assert_eq!(grant.withdraw("Zed"), [both]);
        assert_eq!(grant.folders, [own]);
        assert!(grant.offered_by.is_empty());
    }

    #[test]
    fn a_folder_shared_read_only_is_bound_so_and_its_mark_outlives_a_change_of_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let (papers, project) = (dir.path().join("papers"), dir.path().join("project"));
        for folder in [&papers, &project] {
            std::fs::create_dir(folder).unwrap();
        }
        let (papers, project) = (
            papers.canonicalize().unwrap(),
            project.canonicalize().unwrap(),
        );
        let roots = Roots::default();
        let mut changes = roots.changes();
        roots
            .grant("files", &[papers.clone(), project.clone()])
            .unwrap();
        changes.mark_unchanged();
        assert!(roots.mark_read_only("files", vec![papers.clone()]));
        assert!(
            changes.has_changed().unwrap(),
            "a sandboxed server binds it anew"
        );
        assert_eq!(
            roots.shared("files"),
            Shared {
                written: vec![project.clone()],
                read: vec![papers.clone()],
            }
        );
        assert!(!roots.mark_read_only("files", vec![papers.clone()]));

        let before = FolderGrant {
            read_only: vec![papers.clone()],
            ..FolderGrant::of("files", "id".into(), &roots.of("files"))
        };
        let mut after = FolderGrant::of(
            "files",
            "id".into(),
            &roots_of(std::slice::from_ref(&papers)).unwrap(),
        );
        after.keep_marks_of(&before);
        assert_eq!(after.read_only, std::slice::from_ref(&papers));
        let mut without = FolderGrant::of("files", "id".into(), &roots_of(&[project]).unwrap());
        without.keep_marks_of(&before);
        assert!(
            without.read_only.is_empty(),
            "a folder no longer shared loses its mark"
        );
    }

    #[test]
    fn a_missing_folder_or_a_file_fails_the_whole_change() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        let roots = Roots::default();
        roots.grant("s", &[dir.path().to_owned()]).unwrap();
        let err = roots
            .grant("s", &[dir.path().to_owned(), file.clone()])
            .unwrap_err();
        assert_eq!(
            err,
            RootError::Unusable {
                path: file,
                reason: Unusable::NotAFolder
            }
        );
        let gone = dir.path().join("gone");
        assert_eq!(
            roots.grant("s", std::slice::from_ref(&gone)).unwrap_err(),
            RootError::Unusable {
                path: gone,
                reason: Unusable::NotFound
            }
        );
        assert_eq!(roots.of("s").len(), 1, "the earlier grant stands");
    }
}

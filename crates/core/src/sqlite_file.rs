//! A SQLite file the host keeps (the audit log, the conversations): opened off the async
//! workers, each call on a blocking thread, so that a slow disk, or the file locked by
//! another process, holds up only the call that waits for it; a file SQLite cannot read is
//! moved aside, kept, and a new one begun. The folder and the files are the owner's alone.

mod aside;
mod private;

use parking_lot::{Mutex, MutexGuard};
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use rusqlite::Connection;

/// What can go wrong with a kept file, whatever it keeps: its owner's error says which file
/// ("the audit log ", then this).
#[derive(Debug, thiserror::Error)]
pub enum FileFault {
    #[error("at {path}: {source}")]
    Database {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("at {path} could not be read ({why}), nor moved aside: {source}")]
    MoveAside {
        path: String,
        why: String,
        #[source]
        source: std::io::Error,
    },
    /// The folder or the file could not be made the owner's alone.
    #[error("at {path} could not be made private to its owner: {source}")]
    Private {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The blocking thread of a call ended without an answer (the runtime is stopping).
    #[error("did not finish a call: {0}")]
    Interrupted(String),
}

/// The error type of a kept file's owner: it holds the file's faults.
pub trait FileError: From<FileFault> + Send + 'static {
    /// The file's fault, when it is one.
    fn fault(&self) -> Option<&FileFault>;

    /// What SQLite said, when it was SQLite that failed.
    fn sqlite(&self) -> Option<&rusqlite::Error> {
        match self.fault()? {
            FileFault::Database { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A fault of a kept file by kind, for a face to say in its language: the path and the
/// system's or SQLite's words as they came.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Fault {
    Database {
        path: String,
        detail: String,
    },
    MoveAside {
        path: String,
        why: String,
        detail: String,
    },
    Private {
        path: String,
        detail: String,
    },
    Interrupted {
        why: String,
    },
}

impl From<&FileFault> for Fault {
    fn from(fault: &FileFault) -> Self {
        match fault {
            FileFault::Database { path, source } => Self::Database {
                path: path.clone(),
                detail: source.to_string(),
            },
            FileFault::MoveAside { path, why, source } => Self::MoveAside {
                path: path.clone(),
                why: why.clone(),
                detail: source.to_string(),
            },
            FileFault::Private { path, source } => Self::Private {
                path: path.clone(),
                detail: source.to_string(),
            },
            FileFault::Interrupted(why) => Self::Interrupted { why: why.clone() },
        }
    }
}

/// Which of the host's files: its notices name it by this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Book {
    AuditLog,
    Conversations,
    Tasks,
}

impl Book {
    /// What the English calls it ("the audit log"), how it says it was moved ("it was"),
    /// and what begins in its place ("a new one").
    pub fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Self::AuditLog => ("the audit log", "it was", "a new one"),
            Self::Conversations => ("the conversations", "they were", "a new file"),
            Self::Tasks => ("the tasks", "they were", "a new file"),
        }
    }
}

/// A damaged file that was moved aside: where to, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MovedAside {
    pub from: PathBuf,
    pub to: PathBuf,
    /// What SQLite said of the file.
    pub why: String,
    pub book: Book,
}

impl fmt::Display for MovedAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, was, new) = self.book.words();
        write!(
            f,
            "{what} at {} could not be read ({}): {was} moved to {} and {new} begun",
            self.from.display(),
            self.why,
            self.to.display()
        )
    }
}

/// A file opened by `S`, whose calls run on blocking threads.
pub struct Kept<S> {
    store: Arc<S>,
    /// The damaged file this one replaced when it opened, if it did.
    moved_aside: Option<MovedAside>,
}

impl<S> Clone for Kept<S> {
    fn clone(&self) -> Self {
        Self {
            store: self.store.clone(),
            moved_aside: self.moved_aside.clone(),
        }
    }
}

impl<S: Send + Sync + 'static> Kept<S> {
    /// Opens (or makes) the file with `open`, the owner's alone. One SQLite cannot read is
    /// moved aside and a new one opened in its place ([`Self::moved_aside`]).
    pub fn open<E: FileError>(
        path: &Path,
        book: Book,
        open: impl Fn(&Path) -> Result<S, E>,
    ) -> Result<Self, E> {
        let open = |path: &Path| {
            private::prepare(path).map_err(|source| {
                E::from(FileFault::Private {
                    path: path.display().to_string(),
                    source,
                })
            })?;
            open(path)
        };
        let why = match open(path) {
            Err(e) if e.sqlite().is_some_and(aside::is_damage) => {
                e.sqlite().map(ToString::to_string).unwrap_or_default()
            }
            opened => {
                return opened.map(|store| Self {
                    store: Arc::new(store),
                    moved_aside: None,
                });
            }
        };
        let to = aside::move_aside(path, SystemTime::now()).map_err(|source| {
            E::from(FileFault::MoveAside {
                path: path.display().to_string(),
                why: why.clone(),
                source,
            })
        })?;
        let moved = MovedAside {
            from: path.to_owned(),
            to,
            why,
            book,
        };
        tracing::warn!("{moved}");
        Ok(Self {
            store: Arc::new(open(path)?),
            moved_aside: Some(moved),
        })
    }

    /// The damaged file this one replaced when it opened, if it did: the person should know.
    pub fn moved_aside(&self) -> Option<&MovedAside> {
        self.moved_aside.as_ref()
    }

    /// The store, for what it keeps in memory: never for a call that touches its file.
    pub fn now(&self) -> &S {
        &self.store
    }

    /// Runs `call` on the store on a blocking thread, in the background.
    pub fn spawn(&self, call: impl FnOnce(&S) + Send + 'static) {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || call(&store));
    }

    /// Runs `call` on the store, on a blocking thread.
    pub async fn call<T: Send + 'static, E: FileError>(
        &self,
        call: impl FnOnce(&S) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || call(&store))
            .await
            .map_err(|e| E::from(FileFault::Interrupted(e.to_string())))?
    }
}

/// Opens (or makes) the SQLite file at `path` (its folder made by [`Kept::open`]) with these
/// pragmas, in order, and then `schema`.
pub fn connect(
    path: &Path,
    pragmas: &[(&str, &str)],
    schema: &str,
) -> rusqlite::Result<Connection> {
    let db = Connection::open(path)?;
    for (pragma, value) in pragmas {
        db.pragma_update(None, pragma, value)?;
    }
    db.execute_batch(schema)?;
    Ok(db)
}

/// A connection, for statements that are short and synchronous, each on a blocking thread;
/// its failures said as `E`, with the file's path.
pub struct Db<E> {
    path: String,
    connection: Mutex<Connection>,
    error: PhantomData<fn() -> E>,
}

impl<E: FileError> Db<E> {
    pub fn new(path: &Path, connection: Connection) -> Self {
        Self {
            path: path.display().to_string(),
            connection: Mutex::new(connection),
            error: PhantomData,
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, Connection> {
        self.connection.lock()
    }

    pub fn fail(&self, source: rusqlite::Error) -> E {
        E::from(FileFault::Database {
            path: self.path.clone(),
            source,
        })
    }
}

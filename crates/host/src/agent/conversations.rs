//! Conversations kept in a SQLite file beside the audit log: made, listed, renamed,
//! deleted, searched by their text, and each message appended as it completes, so that
//! they survive a restart (or a crash) whole. Async code calls it; each call runs on a
//! blocking thread, so a slow disk holds up only the call that waits for it. A file
//! SQLite cannot read is moved aside, kept, and a new one begun.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use switchboard_providers::Message;

use super::conversation_file::File;
use super::naming::Enablement;
use crate::audit::aside;

#[derive(Debug, thiserror::Error)]
pub enum ConversationError {
    #[error("the conversations at {path}: {source}")]
    Database {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("the conversations at {path} could not be read ({why}), nor moved aside: {source}")]
    MoveAside {
        path: String,
        why: String,
        #[source]
        source: std::io::Error,
    },
    #[error("there is no conversation {0}")]
    NotFound(i64),
    /// The agent was made without a place to keep conversations.
    #[error("conversations are not kept")]
    NotKept,
    /// The blocking thread of a call ended without an answer (the runtime is stopping).
    #[error("the conversations' call did not finish: {0}")]
    Interrupted(String),
}

/// A conversation as a list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ConversationSummary {
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub id: i64,
    pub title: String,
    /// Milliseconds since the Unix epoch.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub created_ms: i64,
    /// When a message was last added, or the title changed.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub updated_ms: i64,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub messages: u64,
}

/// A conversation opened: its messages in order, and which tools its model sees.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pub summary: ConversationSummary,
    pub messages: Vec<Message>,
    pub enablement: Enablement,
}

/// A damaged file that was moved aside: where to, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovedAside {
    pub from: PathBuf,
    pub to: PathBuf,
    pub why: String,
}

impl fmt::Display for MovedAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the conversations at {} could not be read ({}): they were moved to {} and a new file begun",
            self.from.display(),
            self.why,
            self.to.display()
        )
    }
}

/// The kept conversations; cheap to clone.
#[derive(Clone)]
pub struct Conversations {
    file: Arc<File>,
    moved_aside: Option<MovedAside>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

impl Conversations {
    /// Opens (or makes) the file. One SQLite cannot read is moved aside and a new one
    /// begun ([`Self::moved_aside`]).
    pub fn open(path: &Path) -> Result<Self, ConversationError> {
        let damage = match File::open(path) {
            Err(ConversationError::Database { source, .. }) if aside::is_damage(&source) => source,
            opened => {
                return opened.map(|file| Self {
                    file: Arc::new(file),
                    moved_aside: None,
                });
            }
        };
        let why = damage.to_string();
        let to = aside::move_aside(path, SystemTime::now()).map_err(|source| {
            ConversationError::MoveAside {
                path: path.display().to_string(),
                why: why.clone(),
                source,
            }
        })?;
        let moved = MovedAside {
            from: path.to_owned(),
            to,
            why,
        };
        tracing::warn!("{moved}");
        Ok(Self {
            file: Arc::new(File::open(path)?),
            moved_aside: Some(moved),
        })
    }

    /// The damaged file this one replaced when it opened, if it did: the person should know.
    pub fn moved_aside(&self) -> Option<&MovedAside> {
        self.moved_aside.as_ref()
    }

    async fn call<T: Send + 'static>(
        &self,
        call: impl FnOnce(&File) -> Result<T, ConversationError> + Send + 'static,
    ) -> Result<T, ConversationError> {
        let file = self.file.clone();
        tokio::task::spawn_blocking(move || call(&file))
            .await
            .map_err(|e| ConversationError::Interrupted(e.to_string()))?
    }

    pub async fn create(&self, title: &str) -> Result<ConversationSummary, ConversationError> {
        let title = title.to_owned();
        self.call(move |f| f.create(&title, now_ms())).await
    }

    /// Every conversation, the one changed last first.
    pub async fn list(&self) -> Result<Vec<ConversationSummary>, ConversationError> {
        self.call(File::list).await
    }

    /// The conversations whose title or text holds every word of `query`.
    pub async fn search(&self, query: &str) -> Result<Vec<ConversationSummary>, ConversationError> {
        let query = query.to_owned();
        self.call(move |f| f.search(&query)).await
    }

    pub async fn rename(&self, id: i64, title: &str) -> Result<(), ConversationError> {
        let title = title.to_owned();
        self.call(move |f| f.rename(id, &title, now_ms())).await
    }

    /// Deletes a conversation and its messages.
    pub async fn delete(&self, id: i64) -> Result<(), ConversationError> {
        self.call(move |f| f.delete(id)).await
    }

    pub async fn get(&self, id: i64) -> Result<Conversation, ConversationError> {
        self.call(move |f| f.conversation(id)).await
    }

    /// Which servers and tools the conversation's model sees from now on.
    pub async fn set_enablement(
        &self,
        id: i64,
        enablement: Enablement,
    ) -> Result<(), ConversationError> {
        self.call(move |f| f.set_enablement(id, &enablement)).await
    }

    /// Adds a completed message at the end of the conversation.
    pub async fn append(&self, id: i64, message: &Message) -> Result<(), ConversationError> {
        let message = message.clone();
        self.call(move |f| f.append(id, &message, now_ms())).await
    }
}

//! Conversations kept in a SQLite file beside the audit log: made, listed, renamed,
//! deleted (and taken back until the file is next opened), searched by their text, each
//! message appended as it completes, so that they survive a restart (or a crash) whole,
//! and messages removed when the person takes a turn back; with each conversation, the
//! tools its model sees and how it asks ([`ConversationSettings`]). Async code calls it; each call runs on a
//! blocking thread, so a slow disk holds up only the call that waits for it. A file
//! SQLite cannot read is moved aside, kept, and a new one begun.

mod file;

use std::path::Path;

use serde::{Deserialize, Serialize};
use switchboard_providers::Message;

pub use crate::events::Spent;
use crate::naming::Enablement;
use file::File;
use switchboard_core::clock::now_ms;
pub use switchboard_core::sqlite_file::MovedAside;
use switchboard_core::sqlite_file::{Book, FileError, FileFault, Kept};

#[derive(Debug, thiserror::Error)]
pub enum ConversationError {
    #[error("the conversations {0}")]
    File(#[from] FileFault),
    #[error("there is no conversation {0}")]
    NotFound(i64),
    #[error("conversation {0} has no such messages: it changed meanwhile")]
    NoSuchMessages(i64),
    /// The agent was made without a place to keep conversations.
    #[error("conversations are not kept")]
    NotKept,
}

impl FileError for ConversationError {
    fn fault(&self) -> Option<&FileFault> {
        match self {
            Self::File(fault) => Some(fault),
            _ => None,
        }
    }
}

/// A conversation as a list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ConversationSummary {
    pub id: i64,
    pub title: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When a message was last added, or the title changed.
    pub updated_ms: i64,
    pub messages: u64,
}

/// How a conversation asks its model, kept with it: what is not set, the host's defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase", default)]
pub struct ConversationSettings {
    /// The provider, as the Models page names it.
    pub provider: Option<String>,
    pub model: Option<String>,
    /// The person's own system prompt.
    pub system: Option<String>,
    /// The most tokens an answer may take.
    pub max_tokens: Option<u32>,
    /// The most times the model is asked in one run.
    pub max_rounds: Option<u32>,
    /// How hard a reasoning model thinks (none: its default).
    pub effort: Option<switchboard_providers::Effort>,
}

/// A conversation opened: its messages in order, what each of the model's answers took
/// (beside it: `spent[i]` is `messages[i]`'s), which tools its model sees, and how it asks.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pub summary: ConversationSummary,
    pub messages: Vec<Message>,
    pub spent: Vec<Option<Spent>>,
    pub enablement: Enablement,
    pub settings: ConversationSettings,
}

/// The kept conversations; cheap to clone.
#[derive(Clone)]
pub struct Conversations {
    file: Kept<File>,
}

impl Conversations {
    /// Opens (or makes) the file. One SQLite cannot read is moved aside and a new one
    /// begun ([`Self::moved_aside`]).
    pub fn open(path: &Path) -> Result<Self, ConversationError> {
        let file = Kept::open(path, Book::Conversations, File::open)?;
        Ok(Self { file })
    }

    /// The damaged file this one replaced when it opened, if it did: the person should know.
    pub fn moved_aside(&self) -> Option<&MovedAside> {
        self.file.moved_aside()
    }

    pub async fn create(&self, title: &str) -> Result<ConversationSummary, ConversationError> {
        let title = title.to_owned();
        self.file.call(move |f| f.create(&title, now_ms())).await
    }

    /// Every conversation, the one changed last first.
    pub async fn list(&self) -> Result<Vec<ConversationSummary>, ConversationError> {
        self.file.call(File::list).await
    }

    /// The conversations whose title or text holds every word of `query`.
    pub async fn search(&self, query: &str) -> Result<Vec<ConversationSummary>, ConversationError> {
        let query = query.to_owned();
        self.file.call(move |f| f.search(&query)).await
    }

    pub async fn rename(&self, id: i64, title: &str) -> Result<(), ConversationError> {
        let title = title.to_owned();
        self.file
            .call(move |f| f.rename(id, &title, now_ms()))
            .await
    }

    /// Deletes a conversation and its messages; [`Self::restore`] takes it back until the
    /// file is next opened.
    pub async fn delete(&self, id: i64) -> Result<(), ConversationError> {
        self.file.call(move |f| f.delete(id, now_ms())).await
    }

    /// Takes back a conversation deleted since the file was opened.
    pub async fn restore(&self, id: i64) -> Result<(), ConversationError> {
        self.file.call(move |f| f.restore(id)).await
    }

    /// Removes the messages of `range`, in the order [`Self::get`] lists them.
    pub async fn remove(
        &self,
        id: i64,
        range: std::ops::Range<usize>,
    ) -> Result<(), ConversationError> {
        self.file.call(move |f| f.remove(id, range, now_ms())).await
    }

    /// The messages before `upto` replaced by `summary` (kept aside in the file, not lost).
    pub async fn summarise(
        &self,
        id: i64,
        upto: usize,
        summary: &Message,
    ) -> Result<(), ConversationError> {
        let summary = summary.clone();
        self.file
            .call(move |f| f.summarise(id, upto, &summary, now_ms()))
            .await
    }

    /// How the conversation asks its model from now on.
    pub async fn set_settings(
        &self,
        id: i64,
        settings: ConversationSettings,
    ) -> Result<(), ConversationError> {
        self.file.call(move |f| f.set_settings(id, &settings)).await
    }

    pub async fn get(&self, id: i64) -> Result<Conversation, ConversationError> {
        self.file.call(move |f| f.conversation(id)).await
    }

    /// Which servers and tools the conversation's model sees from now on.
    pub async fn set_enablement(
        &self,
        id: i64,
        enablement: Enablement,
    ) -> Result<(), ConversationError> {
        self.file
            .call(move |f| f.set_enablement(id, &enablement))
            .await
    }

    /// Adds a completed message at the end of the conversation.
    pub async fn append(&self, id: i64, message: &Message) -> Result<(), ConversationError> {
        self.append_spent(id, message, None).await
    }

    /// [`Self::append`], with what the model's answer took.
    pub async fn append_spent(
        &self,
        id: i64,
        message: &Message,
        spent: Option<&Spent>,
    ) -> Result<(), ConversationError> {
        let (message, spent) = (message.clone(), spent.cloned());
        self.file
            .call(move |f| f.append(id, &message, spent.as_ref(), now_ms()))
            .await
    }
}

//! What the host had to do about a file it keeps, for the status bar: a kind the window
//! words in the person's language, with the paths, SQLite's words and the setting as they
//! came. `Display` is the host's English, for its log.

use std::fmt;

use serde::Serialize;
use switchboard_core::audit::RetentionError;
use switchboard_core::sqlite_file::{Book, MovedAside};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FileNotice {
    /// The file could not be read (SQLite's words): it was moved aside, a new one begun.
    MovedAside(MovedAside),
    /// The file could not be opened at all: what it keeps is not kept this run.
    NotKept { book: Book, error: String },
    /// A retention setting is not a whole number: the defaults apply.
    RetentionUnread { key: String, value: String },
}

impl From<&MovedAside> for FileNotice {
    fn from(moved: &MovedAside) -> Self {
        Self::MovedAside(moved.clone())
    }
}

impl From<&RetentionError> for FileNotice {
    fn from(error: &RetentionError) -> Self {
        Self::RetentionUnread {
            key: error.key.to_owned(),
            value: error.value.clone(),
        }
    }
}

impl fmt::Display for FileNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MovedAside(moved) => write!(f, "{moved}"),
            Self::NotKept { book, error } => {
                write!(f, "{error}; {} cannot be kept", book.words().0)
            }
            Self::RetentionUnread { key, value } => write!(
                f,
                "the setting {key} must be a whole number (0 for no limit), not {value}; the audit trail keeps records 90 days, up to 100 MB"
            ),
        }
    }
}

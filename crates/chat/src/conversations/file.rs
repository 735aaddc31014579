//! The conversations' SQLite file, called synchronously: only ever from a blocking
//! thread (see [`super::Conversations`]).

use std::path::Path;

use rusqlite::{OptionalExtension, params, params_from_iter};
use switchboard_providers::{AssistantContent, Message, ToolResultContent, UserContent};

use super::{Conversation, ConversationError, ConversationSettings, ConversationSummary, Spent};
use crate::naming::Enablement;
use switchboard_core::cut;
use switchboard_core::sqlite_file::{self, Db, FileFault};

/// The next value of `changed`.
const NEXT: &str = "(SELECT COALESCE(MAX(changed), 0) + 1 FROM conversations)";

/// The most of a title kept.
const TITLE_BYTES: usize = 512;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    enablement TEXT NOT NULL DEFAULT '{}',
    -- Raised on every change: orders the list even within one millisecond.
    changed INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL DEFAULT '{}',
    -- Set when deleted: the person may take it back until the file is next opened.
    deleted_ms INTEGER
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    at_ms INTEGER NOT NULL,
    message TEXT NOT NULL,
    text TEXT NOT NULL,
    -- What the model's answer took (JSON), for its answers.
    spent TEXT
);
CREATE INDEX IF NOT EXISTS messages_of ON messages (conversation, id);
-- Messages a summary replaced, kept as they were (JSON, with what each answer took).
CREATE TABLE IF NOT EXISTS summarised (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    at_ms INTEGER NOT NULL,
    messages TEXT NOT NULL
);
";

pub(super) struct File {
    db: Db<ConversationError>,
}

/// The conversations not deleted; a query adds its conditions with `AND`.
const SUMMARY: &str = "SELECT c.id, c.title, c.created_ms, c.updated_ms,
    (SELECT COUNT(*) FROM messages m WHERE m.conversation = c.id)
    FROM conversations c WHERE c.deleted_ms IS NULL";

/// Columns added since the first files were written, with how a file without them gets
/// them.
const ADDED: &[(&str, &str, &str)] = &[
    (
        "conversations",
        "settings",
        "ALTER TABLE conversations ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'",
    ),
    (
        "conversations",
        "deleted_ms",
        "ALTER TABLE conversations ADD COLUMN deleted_ms INTEGER",
    ),
    (
        "messages",
        "spent",
        "ALTER TABLE messages ADD COLUMN spent TEXT",
    ),
];

/// Brings a file written by an earlier version up to this one's schema, and lets go of the
/// conversations deleted before it was last closed.
fn upgrade(db: &rusqlite::Connection) -> rusqlite::Result<()> {
    for (table, column, add) in ADDED {
        let has: i64 = db.query_row(
            "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
            [table, column],
            |r| r.get(0),
        )?;
        if has == 0 {
            db.execute_batch(add)?;
        }
    }
    db.execute("DELETE FROM conversations WHERE deleted_ms IS NOT NULL", [])?;
    Ok(())
}

fn summary(row: &rusqlite::Row<'_>) -> rusqlite::Result<ConversationSummary> {
    Ok(ConversationSummary {
        id: row.get(0)?,
        title: row.get(1)?,
        created_ms: row.get(2)?,
        updated_ms: row.get(3)?,
        messages: row.get::<_, i64>(4)? as u64,
    })
}

impl File {
    pub(super) fn open(path: &Path) -> Result<Self, ConversationError> {
        let pragmas = [
            ("journal_mode", "WAL"),
            ("synchronous", "FULL"),
            ("foreign_keys", "ON"),
        ];
        let db = sqlite_file::connect(path, &pragmas, SCHEMA)
            .and_then(|db| upgrade(&db).map(|()| db))
            .map_err(|source| {
                ConversationError::from(FileFault::Database {
                    path: path.display().to_string(),
                    source,
                })
            })?;
        Ok(Self {
            db: Db::new(path, db),
        })
    }

    pub(super) fn create(
        &self,
        title: &str,
        now: i64,
    ) -> Result<ConversationSummary, ConversationError> {
        let db = self.db.lock();
        let title = cut::cut_str(title, TITLE_BYTES);
        db.execute(
            &format!(
                "INSERT INTO conversations (title, created_ms, updated_ms, changed)
                 VALUES (?1, ?2, ?2, {NEXT})"
            ),
            params![title, now],
        )
        .map_err(|e| self.db.fail(e))?;
        Ok(ConversationSummary {
            id: db.last_insert_rowid(),
            title: title.into_owned(),
            created_ms: now,
            updated_ms: now,
            messages: 0,
        })
    }

    /// Every conversation, the one changed last first.
    pub(super) fn list(&self) -> Result<Vec<ConversationSummary>, ConversationError> {
        let db = self.db.lock();
        let mut statement = db
            .prepare(&format!("{SUMMARY} ORDER BY c.changed DESC"))
            .map_err(|e| self.db.fail(e))?;
        let rows = statement
            .query_map([], summary)
            .map_err(|e| self.db.fail(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db.fail(e))
    }

    /// The conversations whose title or messages hold every word of `query` (ignoring
    /// the case of ASCII letters), the one changed last first.
    pub(super) fn search(
        &self,
        query: &str,
    ) -> Result<Vec<ConversationSummary>, ConversationError> {
        let words: Vec<String> = query
            .split_whitespace()
            .map(|w| format!("%{}%", escape_like(w)))
            .collect();
        if words.is_empty() {
            return self.list();
        }
        let each = "(c.title LIKE ?{n} ESCAPE '\\' OR EXISTS (SELECT 1 FROM messages m \
                    WHERE m.conversation = c.id AND m.text LIKE ?{n} ESCAPE '\\'))";
        let filter: Vec<String> = (1..=words.len())
            .map(|n| each.replace("{n}", &n.to_string()))
            .collect();
        let sql = format!(
            "{SUMMARY} AND {} ORDER BY c.changed DESC",
            filter.join(" AND ")
        );
        let db = self.db.lock();
        let mut statement = db.prepare(&sql).map_err(|e| self.db.fail(e))?;
        let rows = statement
            .query_map(params_from_iter(words.iter()), summary)
            .map_err(|e| self.db.fail(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db.fail(e))
    }

    pub(super) fn rename(&self, id: i64, title: &str, now: i64) -> Result<(), ConversationError> {
        let changed = self
            .db
            .lock()
            .execute(
                &format!(
                    "UPDATE conversations SET title = ?2, updated_ms = ?3, changed = {NEXT}
                     WHERE id = ?1 AND deleted_ms IS NULL"
                ),
                params![id, cut::cut_str(title, TITLE_BYTES), now],
            )
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)
    }

    /// Deletes a conversation, so that it can be taken back ([`Self::restore`]) until the
    /// file is next opened.
    pub(super) fn delete(&self, id: i64, now: i64) -> Result<(), ConversationError> {
        let changed = self
            .db
            .lock()
            .execute(
                "UPDATE conversations SET deleted_ms = ?2 WHERE id = ?1 AND deleted_ms IS NULL",
                params![id, now],
            )
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)
    }

    pub(super) fn restore(&self, id: i64) -> Result<(), ConversationError> {
        let changed = self
            .db
            .lock()
            .execute(
                &format!(
                    "UPDATE conversations SET deleted_ms = NULL, changed = {NEXT}
                     WHERE id = ?1 AND deleted_ms IS NOT NULL"
                ),
                params![id],
            )
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)
    }

    /// Removes the messages of `range`, counted as [`Self::conversation`] lists them.
    pub(super) fn remove(
        &self,
        id: i64,
        range: std::ops::Range<usize>,
        now: i64,
    ) -> Result<(), ConversationError> {
        let mut db = self.db.lock();
        let tx = db.transaction().map_err(|e| self.db.fail(e))?;
        let changed = tx
            .execute(
                &format!(
                    "UPDATE conversations SET updated_ms = ?2, changed = {NEXT}
                     WHERE id = ?1 AND deleted_ms IS NULL"
                ),
                params![id, now],
            )
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)?;
        let rows: Vec<i64> = readable(&tx, id)
            .map_err(|e| self.db.fail(e))?
            .into_iter()
            .map(|kept| kept.row)
            .collect();
        let Some(gone) = rows.get(range) else {
            return Err(ConversationError::NoSuchMessages(id));
        };
        let mut delete = tx
            .prepare("DELETE FROM messages WHERE id = ?1")
            .map_err(|e| self.db.fail(e))?;
        for row in gone {
            delete.execute(params![row]).map_err(|e| self.db.fail(e))?;
        }
        drop(delete);
        tx.commit().map_err(|e| self.db.fail(e))
    }

    /// The messages before `upto` replaced by `summary`: they are kept in `summarised`,
    /// and the summary takes the place of the first of them.
    pub(super) fn summarise(
        &self,
        id: i64,
        upto: usize,
        summary: &Message,
        now: i64,
    ) -> Result<(), ConversationError> {
        let mut db = self.db.lock();
        let tx = db.transaction().map_err(|e| self.db.fail(e))?;
        let kept = readable(&tx, id).map_err(|e| self.db.fail(e))?;
        let Some(earlier) = kept.get(..upto).filter(|e| !e.is_empty()) else {
            return Err(ConversationError::NoSuchMessages(id));
        };
        let archived: Vec<serde_json::Value> = earlier
            .iter()
            .map(|k| serde_json::json!({"message": k.message, "spent": k.spent}))
            .collect();
        tx.execute(
            "INSERT INTO summarised (conversation, at_ms, messages) VALUES (?1, ?2, ?3)",
            params![id, now, serde_json::Value::Array(archived).to_string()],
        )
        .map_err(|e| self.db.fail(e))?;
        for message in earlier {
            tx.execute("DELETE FROM messages WHERE id = ?1", params![message.row])
                .map_err(|e| self.db.fail(e))?;
        }
        let json = serde_json::to_string(summary).unwrap_or_default();
        tx.execute(
            "INSERT INTO messages (id, conversation, at_ms, message, text) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![earlier[0].row, id, now, json, searchable(summary)],
        )
        .map_err(|e| self.db.fail(e))?;
        tx.commit().map_err(|e| self.db.fail(e))
    }

    pub(super) fn set_settings(
        &self,
        id: i64,
        settings: &ConversationSettings,
    ) -> Result<(), ConversationError> {
        let text = serde_json::to_string(settings).unwrap_or_else(|_| "{}".to_owned());
        let changed = self
            .db
            .lock()
            .execute(
                "UPDATE conversations SET settings = ?2 WHERE id = ?1 AND deleted_ms IS NULL",
                params![id, text],
            )
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)
    }

    pub(super) fn set_enablement(
        &self,
        id: i64,
        enablement: &Enablement,
    ) -> Result<(), ConversationError> {
        let text = serde_json::to_string(enablement).unwrap_or_else(|_| "{}".to_owned());
        let changed = self
            .db
            .lock()
            .execute(
                "UPDATE conversations SET enablement = ?2 WHERE id = ?1 AND deleted_ms IS NULL",
                params![id, text],
            )
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)
    }

    pub(super) fn append(
        &self,
        id: i64,
        message: &Message,
        spent: Option<&Spent>,
        now: i64,
    ) -> Result<(), ConversationError> {
        let json = serde_json::to_string(message).unwrap_or_default();
        let spent = spent.and_then(|s| serde_json::to_string(s).ok());
        let mut db = self.db.lock();
        let tx = db.transaction().map_err(|e| self.db.fail(e))?;
        // Compiled once per connection: every message of every conversation comes here.
        let changed = tx
            .prepare_cached(&format!(
                "UPDATE conversations SET updated_ms = ?2, changed = {NEXT}
                 WHERE id = ?1 AND deleted_ms IS NULL"
            ))
            .and_then(|mut update| update.execute(params![id, now]))
            .map_err(|e| self.db.fail(e))?;
        found(changed, id)?;
        tx.prepare_cached(
            "INSERT INTO messages (conversation, at_ms, message, text, spent)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .and_then(|mut insert| insert.execute(params![id, now, json, searchable(message), spent]))
        .map_err(|e| self.db.fail(e))?;
        tx.commit().map_err(|e| self.db.fail(e))
    }

    /// A conversation with its messages in order. A message this version cannot read
    /// (written by a later one, or damaged) is left out and logged.
    pub(super) fn conversation(&self, id: i64) -> Result<Conversation, ConversationError> {
        let db = self.db.lock();
        let found = db
            .query_row(&format!("{SUMMARY} AND c.id = ?1"), params![id], summary)
            .optional()
            .map_err(|e| self.db.fail(e))?;
        let summary = found.ok_or(ConversationError::NotFound(id))?;
        let (enablement, settings): (String, String) = db
            .query_row(
                "SELECT enablement, settings FROM conversations WHERE id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.db.fail(e))?;
        let (messages, spent) = readable(&db, id)
            .map_err(|e| self.db.fail(e))?
            .into_iter()
            .map(|kept| (kept.message, kept.spent))
            .unzip();
        Ok(Conversation {
            summary,
            messages,
            spent,
            enablement: serde_json::from_str(&enablement).unwrap_or_default(),
            settings: serde_json::from_str(&settings).unwrap_or_default(),
        })
    }
}

/// A message as kept: its row, and what the answer took.
struct Kept {
    row: i64,
    message: Message,
    spent: Option<Spent>,
}

/// The messages of a conversation this version can read, in order; the others are logged.
fn readable(db: &rusqlite::Connection, id: i64) -> rusqlite::Result<Vec<Kept>> {
    let mut statement = db.prepare_cached(
        "SELECT id, message, spent FROM messages WHERE conversation = ?1 ORDER BY id",
    )?;
    let rows = statement.query_map(params![id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<String>>(2)?,
        ))
    })?;
    let mut messages = Vec::new();
    for row in rows {
        let (row, text, spent) = row?;
        match serde_json::from_str(&text) {
            Ok(message) => messages.push(Kept {
                row,
                message,
                spent: spent.and_then(|s| serde_json::from_str(&s).ok()),
            }),
            Err(e) => tracing::warn!("message {row} of conversation {id} is unreadable: {e}"),
        }
    }
    Ok(messages)
}

fn found(changed: usize, id: i64) -> Result<(), ConversationError> {
    if changed == 0 {
        Err(ConversationError::NotFound(id))
    } else {
        Ok(())
    }
}

/// `%`, `_` and `\` taken literally by `LIKE ... ESCAPE '\'`.
fn escape_like(word: &str) -> String {
    let mut escaped = String::with_capacity(word.len());
    for c in word.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// The text of a message a search looks in: what was written, and what tools answered.
fn searchable(message: &Message) -> String {
    let mut parts: Vec<&str> = Vec::new();
    match message {
        Message::User(content) => {
            for c in content {
                match c {
                    UserContent::Text(t) => parts.push(t),
                    UserContent::ToolResult(r) => {
                        for c in &r.content {
                            if let ToolResultContent::Text(t) = c {
                                parts.push(t);
                            }
                        }
                    }
                    UserContent::Image(_) => {}
                }
            }
        }
        Message::Assistant(content) => {
            for c in content {
                match c {
                    AssistantContent::Text(t) => parts.push(t),
                    AssistantContent::ToolCall(call) => parts.push(&call.name),
                    AssistantContent::Reasoning(_) => {}
                }
            }
        }
    }
    parts.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_an_earlier_version_is_read_and_takes_settings_and_deletion() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("conversations.sqlite");
        {
            let old = rusqlite::Connection::open(&path).expect("the file");
            old.execute_batch(
                "CREATE TABLE conversations (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
                    created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
                    enablement TEXT NOT NULL DEFAULT '{}', changed INTEGER NOT NULL DEFAULT 0);
                 CREATE TABLE messages (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    conversation INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
                    at_ms INTEGER NOT NULL, message TEXT NOT NULL, text TEXT NOT NULL);
                 INSERT INTO conversations (title, created_ms, updated_ms) VALUES ('Old', 1, 1);",
            )
            .expect("an earlier version's file");
        }
        let file = File::open(&path).expect("opened");
        let old = file.conversation(1).expect("kept");
        assert_eq!(old.summary.title, "Old");
        assert_eq!(old.settings, ConversationSettings::default());
        let settings = ConversationSettings {
            max_tokens: Some(900),
            ..ConversationSettings::default()
        };
        file.set_settings(1, &settings).expect("set");
        assert_eq!(file.conversation(1).expect("kept").settings, settings);
        file.delete(1, 2).expect("deleted");
        assert!(file.list().expect("listed").is_empty());
    }

    #[test]
    fn like_wildcards_are_taken_literally() {
        assert_eq!(escape_like("50%_a\\b"), "50\\%\\_a\\\\b");
    }
}

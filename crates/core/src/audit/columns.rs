//! How a record's decider ([`DecidedBy`]) and outcome ([`Outcome`]) are stored: each as
//! its kind and the kind's fields (JSON), in columns of their own, so that the log is
//! queried by kind and read back typed.
//!
//! A record written before they were typed keeps its text in the column it was written in
//! (`decided_by`, `outcome`), under the kind [`TEXT`]: it is read back as it was recorded
//! ([`DecidedBy::Recorded`], [`Outcome::Recorded`]), never parsed. The search matches what
//! a person reads, made from the typed columns by the same words that show them, through
//! SQL functions ([`register`]).

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::decisions::{DecidedBy, Outcome};

/// The kind of a value recorded as text, before values were typed.
pub(super) const TEXT: &str = "text";

/// A value as it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stored {
    /// Its kind: the variant's name, or [`TEXT`].
    pub kind: String,
    /// The variant's fields as JSON; empty when it has none.
    pub detail: String,
    /// The text of a value recorded as text; empty otherwise.
    pub text: String,
}

impl Stored {
    /// The bytes it takes in the file, as `retention::STORED_BYTES` counts them.
    pub fn bytes(&self) -> usize {
        self.kind.len() + self.detail.len() + self.text.len()
    }
}

/// A value stored typed, or as the text it was recorded as.
pub(super) trait Typed: Serialize + DeserializeOwned + std::fmt::Display {
    /// The text it was recorded as, if it is one recorded before values were typed.
    fn recorded(&self) -> Option<&str>;
    fn from_recorded(text: String) -> Self;
}

impl Typed for DecidedBy {
    fn recorded(&self) -> Option<&str> {
        match self {
            Self::Recorded(text) => Some(text),
            _ => None,
        }
    }

    fn from_recorded(text: String) -> Self {
        Self::Recorded(text)
    }
}

impl Typed for Outcome {
    fn recorded(&self) -> Option<&str> {
        match self {
            Self::Recorded(text) => Some(text),
            _ => None,
        }
    }

    fn from_recorded(text: String) -> Self {
        Self::Recorded(text)
    }
}

/// `value` as it is stored.
pub(super) fn store<T: Typed>(value: &T) -> Stored {
    if let Some(text) = value.recorded() {
        return Stored {
            kind: TEXT.to_owned(),
            detail: String::new(),
            text: text.to_owned(),
        };
    }
    // Tagged by serde as {"kind": ..., "detail": ...}; a value of these enums always is.
    let tagged = serde_json::to_value(value).unwrap_or(Value::Null);
    Stored {
        kind: tagged["kind"].as_str().unwrap_or(TEXT).to_owned(),
        detail: tagged.get("detail").map_or(String::new(), Value::to_string),
        text: String::new(),
    }
}

/// A value as stored, read back. A kind this version does not know (written by a newer
/// one) reads as the text of its kind and fields.
pub(super) fn read<T: Typed>(kind: &str, detail: &str, text: String) -> T {
    if kind == TEXT {
        return T::from_recorded(text);
    }
    let fields = if detail.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(detail).unwrap_or(Value::Null)
    };
    serde_json::from_value(json!({"kind": kind, "detail": fields}))
        .unwrap_or_else(|_| T::from_recorded(format!("{kind} {detail}").trim_end().to_owned()))
}

/// Adds to the connection the SQL functions that give the text a person reads of a stored
/// value: `decided_by_text(kind, detail, text)` and `outcome_text(kind, detail, text)`.
pub(super) fn register(db: &Connection) -> rusqlite::Result<()> {
    function::<DecidedBy>(db, "decided_by_text")?;
    function::<Outcome>(db, "outcome_text")
}

fn function<T: Typed>(db: &Connection, name: &str) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    db.create_scalar_function(name, 3, flags, |call| {
        let kind: String = call.get(0)?;
        let detail: String = call.get(1)?;
        Ok(read::<T>(&kind, &detail, call.get(2)?).to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decisions::{Reach, Scope};

    fn round_trip<T: Typed + PartialEq + std::fmt::Debug>(value: T) -> Stored {
        let stored = store(&value);
        let back: T = read(&stored.kind, &stored.detail, stored.text.clone());
        assert_eq!(back, value);
        stored
    }

    #[test]
    fn a_value_is_stored_as_its_kind_and_fields_and_read_back_as_it_was() {
        let rule = DecidedBy::Rule {
            allow: true,
            reach: Reach::Tool,
            scope: Scope::Always,
        };
        assert_eq!(
            round_trip(rule),
            Stored {
                kind: "rule".into(),
                detail: r#"{"allow":true,"reach":"tool","scope":"always"}"#.into(),
                text: String::new(),
            }
        );
        assert_eq!(round_trip(DecidedBy::Person).detail, "");
        round_trip(DecidedBy::Agent {
            name: "Cursor".into(),
        });
        round_trip(DecidedBy::Pace { limit: 60 });
        assert_eq!(round_trip(Outcome::Succeeded).kind, "succeeded");
        assert_eq!(
            round_trip(Outcome::Failed("gone \"away\"".into())).detail,
            r#""gone \"away\"""#
        );
    }

    #[test]
    fn what_was_recorded_as_text_stays_text() {
        let old = "policy: allowed for this tool, always";
        let stored = round_trip(DecidedBy::Recorded(old.into()));
        assert_eq!((stored.kind.as_str(), stored.text.as_str()), (TEXT, old));
        round_trip(Outcome::Recorded("ok".into()));
        assert_eq!(
            read::<DecidedBy>("judged_by_stars", r#"{"stars":3}"#, String::new()),
            DecidedBy::Recorded(r#"judged_by_stars {"stars":3}"#.into()),
            "a kind of a newer version"
        );
    }
}

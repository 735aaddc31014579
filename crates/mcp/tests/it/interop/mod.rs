//! The scenarios every third-party peer that can plays: each is one function, run by one
//! test per peer (`<scenario>::<peer>`) with the peer's row of its table, where the peers'
//! differences (tool names, arguments, the texts they answer with) are data. What only one
//! peer does is tested in its own module (`interop_everything`, `interop_python`, ...).

mod elicitation;
mod handshake;
mod logging;
mod progress;
mod roots;
mod sampling;

use serde_json::{Map, Value};

/// What a text must be.
#[derive(Debug, Clone, Copy)]
pub enum Text {
    Is(&'static str),
    StartsWith(&'static str),
    Contains(&'static str),
    /// The text starts with this, and what follows is this JSON.
    JsonAfter(&'static str, &'static str),
}

impl Text {
    /// Fails the test, saying `what`, unless `text` is as said.
    pub fn check(self, text: &str, what: &str) {
        match self {
            Self::Is(expected) => assert_eq!(text, expected, "{what}"),
            Self::StartsWith(start) => assert!(text.starts_with(start), "{what}: {text}"),
            Self::Contains(part) => assert!(text.contains(part), "{what}: {text}"),
            Self::JsonAfter(start, json) => {
                let rest = text
                    .strip_prefix(start)
                    .unwrap_or_else(|| panic!("{what}: {text}"));
                let found: Value =
                    serde_json::from_str(rest).unwrap_or_else(|e| panic!("{what}: {e}: {rest}"));
                let expected: Value = serde_json::from_str(json).expect("the row's JSON");
                assert_eq!(found, expected, "{what}");
            }
        }
    }
}

/// Tool arguments written in a row as JSON text (`""` for none).
pub fn arguments(json: &str) -> Option<Map<String, Value>> {
    if json.is_empty() {
        return None;
    }
    match serde_json::from_str(json) {
        Ok(Value::Object(map)) => Some(map),
        other => panic!("tool arguments must be an object: {json}: {other:?}"),
    }
}

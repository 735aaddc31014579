//! Roots: the folders a client lets a server see.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

use super::common::Meta;

/// A root: a `file://` URI the server may work within.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Root {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub name: Option<String>,
    #[serde(
        rename = "_meta",
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient"
    )]
    pub meta: Option<Meta>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Root {
    pub fn new(uri: impl Into<String>, name: Option<String>) -> Self {
        Self {
            uri: uri.into(),
            name,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// The result of `roots/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListRootsResult {
    pub roots: Vec<Root>,
    #[serde(
        rename = "_meta",
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient"
    )]
    pub meta: Option<Meta>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ListRootsResult {
    pub fn new(roots: Vec<Root>) -> Self {
        Self {
            roots,
            ..Self::default()
        }
    }
}

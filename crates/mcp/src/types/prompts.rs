//! Prompts: listing and getting.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::listing::{SkippedItem, page};

use super::common::{Cursor, Icon, Meta, Role};
use super::content::ContentBlock;

/// A prompt template the server offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub arguments: Option<Vec<PromptArgument>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub icons: Option<Vec<Icon>>,
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

/// An argument a prompt template accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptArgument {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub required: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of `prompts/list`: one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase")]
pub struct ListPromptsResult {
    pub prompts: Vec<Prompt>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub next_cursor: Option<Cursor>,
    #[serde(
        rename = "_meta",
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient"
    )]
    pub meta: Option<Meta>,
    /// Items of this page that could not be read, left out of the list above.
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

page!(ListPromptsResult, prompts: Prompt, "prompts");

/// Params of `prompts/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPromptRequestParams {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub arguments: Option<BTreeMap<String, String>>,
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

impl GetPromptRequestParams {
    pub fn new(name: impl Into<String>, arguments: Option<BTreeMap<String, String>>) -> Self {
        Self {
            name: name.into(),
            arguments,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// The result of `prompts/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    pub messages: Vec<PromptMessage>,
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

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    pub role: Role,
    pub content: ContentBlock,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

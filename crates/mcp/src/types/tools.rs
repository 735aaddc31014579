//! Tools: listing and calling.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::listing::{SkippedItem, page};

use super::common::{Cursor, Icon, Meta};
use super::content::ContentBlock;

/// A tool the server offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    /// The JSON Schema of the arguments.
    pub input_schema: Map<String, Value>,
    /// The JSON Schema of `structuredContent` in results, if the tool declares one.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub output_schema: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub annotations: Option<ToolAnnotations>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub icons: Option<Vec<Icon>>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub execution: Option<ToolExecution>,
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

impl Tool {
    /// Whether the tool may (`"optional"`) or must (`"required"`) be called as a task;
    /// `"forbidden"` when it says nothing.
    pub fn task_support(&self) -> &str {
        self.execution
            .as_ref()
            .and_then(|e| e.task_support.as_deref())
            .unwrap_or("forbidden")
    }

    /// The title to show: `title`, else `annotations.title`, else the name.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref()?.title.as_deref())
            .unwrap_or(&self.name)
    }
}

/// Untrusted hints about a tool's behaviour.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub read_only_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub destructive_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub idempotent_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub open_world_hint: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// How a tool may be run (2025-11-25 tasks).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolExecution {
    /// `"forbidden"`, `"optional"` or `"required"`.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub task_support: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of `tools/list`: one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase")]
pub struct ListToolsResult {
    pub tools: Vec<Tool>,
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

page!(ListToolsResult, tools: Tool, "tools");

/// Params of `tools/call`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallToolRequestParams {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub arguments: Option<Map<String, Value>>,
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

impl CallToolRequestParams {
    pub fn new(name: impl Into<String>, arguments: Option<Map<String, Value>>) -> Self {
        Self {
            name: name.into(),
            arguments,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// The result of `tools/call`. A failure of the tool itself has `isError: true`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    pub content: Vec<ContentBlock>,
    /// Any JSON value; an object when the tool declares an `outputSchema`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub structured_content: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub is_error: Option<bool>,
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

impl CallToolResult {
    /// A result holding these blocks.
    pub fn new(content: Vec<ContentBlock>) -> Self {
        Self {
            content,
            structured_content: None,
            is_error: None,
            meta: None,
            extra: Map::new(),
        }
    }

    /// Whether the tool reported an error (`isError: true`).
    pub fn failed(&self) -> bool {
        self.is_error == Some(true)
    }
}

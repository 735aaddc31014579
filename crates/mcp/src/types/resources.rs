//! Resources: listing, templates, reading and subscriptions.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::listing::{SkippedItem, page};

use super::common::{Annotations, Cursor, Icon, Meta};
use super::content::ResourceContents;

/// A resource the server can read, as listed by `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub mime_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub annotations: Option<Annotations>,
    /// The size in bytes of the raw contents, if known.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub size: Option<u64>,
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

impl Resource {
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            size: None,
            icons: None,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// A family of resources described by an RFC 6570 URI template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    pub uri_template: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub mime_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub annotations: Option<Annotations>,
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

/// The result of `resources/list`: one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase")]
pub struct ListResourcesResult {
    pub resources: Vec<Resource>,
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

page!(ListResourcesResult, resources: Resource, "resources");

/// The result of `resources/templates/list`: one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase")]
pub struct ListResourceTemplatesResult {
    pub resource_templates: Vec<ResourceTemplate>,
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

page!(ListResourceTemplatesResult, resource_templates: ResourceTemplate, "resourceTemplates");

/// Params naming one resource by URI: `resources/read`, `subscribe` and `unsubscribe`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceRequestParams {
    pub uri: String,
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

impl ResourceRequestParams {
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            meta: None,
            extra: Map::new(),
        }
    }
}

/// Params of `resources/read`.
pub type ReadResourceRequestParams = ResourceRequestParams;

/// Params of `resources/subscribe`.
pub type SubscribeRequestParams = ResourceRequestParams;

/// Params of `resources/unsubscribe`.
pub type UnsubscribeRequestParams = ResourceRequestParams;

/// Params of `notifications/resources/updated`.
pub type ResourceUpdatedNotificationParams = ResourceRequestParams;

/// The result of `resources/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    pub contents: Vec<ResourceContents>,
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

//! What the 2026-07-28 revision adds to the wire: `server/discover`, the per-request
//! `_meta` keys, multi round-trip results (`input_required`), `subscriptions/listen` and
//! the caching hints of list results.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{EmptyResult, Implementation, Meta};
use super::lenient;
use super::lifecycle::ServerCapabilities;

/// The reserved `_meta` keys of the 2026-07-28 revision.
pub mod meta_key {
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// The result of `server/discover`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult {
    pub supported_versions: Vec<String>,
    #[serde(default)]
    pub capabilities: ServerCapabilities,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub instructions: Option<String>,
    /// Where some servers put their identity instead of `_meta`.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub server_info: Option<Implementation>,
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

impl DiscoverResult {
    /// Who the server says it is: `_meta` first, as the revision says, then the top level.
    pub fn server_info(&self) -> Option<Implementation> {
        self.meta
            .as_ref()
            .and_then(|m| m.get(meta_key::SERVER_INFO))
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .or_else(|| self.server_info.clone())
    }
}

/// `resultType` of a 2026-07-28 result; absent (an older server) means complete.
pub const RESULT_TYPE_INPUT_REQUIRED: &str = "input_required";

/// An interim result: the server needs answers before it can finish the request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// Requests for the client, by the server's key (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`), kept as sent.
    #[serde(default)]
    pub input_requests: Map<String, Value>,
    /// Echoed back verbatim on the retry, never read.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub request_state: Option<String>,
}

/// The notification types a `subscriptions/listen` stream carries.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionFilter {
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub tools_list_changed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub prompts_list_changed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub resources_list_changed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub resource_subscriptions: Option<Vec<String>>,
}

impl SubscriptionFilter {
    /// Asks for nothing at all.
    pub fn is_empty(&self) -> bool {
        self.tools_list_changed != Some(true)
            && self.prompts_list_changed != Some(true)
            && self.resources_list_changed != Some(true)
            && self
                .resource_subscriptions
                .as_ref()
                .is_none_or(Vec::is_empty)
    }
}

/// Params of `subscriptions/listen`: what the stream is to carry. The revision requires the
/// filter; one left out asks for nothing, as an empty one does.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SubscriptionsListenRequestParams {
    #[serde(default)]
    pub notifications: SubscriptionFilter,
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

/// The result of `subscriptions/listen`, sent only when the server ends the stream: its
/// `_meta` names the stream (`meta_key::SUBSCRIPTION_ID`, the id of the request).
pub type SubscriptionsListenResult = EmptyResult;

/// The caching hints of a list page or a read (`ttlMs`, `cacheScope`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheHints {
    /// How long the result stays fresh; absent or negative means not at all.
    #[serde(default, with = "lenient")]
    pub ttl_ms: Option<i64>,
}

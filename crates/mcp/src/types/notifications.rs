//! Notifications every peer may send: cancellation and progress.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

use super::common::{Meta, ProgressToken, RequestIdValue, number};

/// Params of `notifications/cancelled`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledNotificationParams {
    /// The request to cancel; required before 2025-11-25, where tasks made it optional.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub request_id: Option<RequestIdValue>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub reason: Option<String>,
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

impl CancelledNotificationParams {
    pub fn new(request_id: impl Into<RequestIdValue>, reason: Option<String>) -> Self {
        Self {
            request_id: Some(request_id.into()),
            reason,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// Params of `notifications/progress`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressNotificationParams {
    pub progress_token: ProgressToken,
    /// Increases with each notification, even when the total is unknown.
    #[serde(serialize_with = "number::f64")]
    pub progress: f64,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64",
        deserialize_with = "lenient::deserialize"
    )]
    pub total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub message: Option<String>,
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

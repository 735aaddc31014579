//! The client's notifications as a server receives them: those the protocol gives a server
//! by name, and any other as it came (progress and cancellation never get here: the
//! connection handles them).

use serde_json::Value;

use crate::types::method;

/// A notification from the client, typed where the protocol defines it.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientNotification {
    /// `notifications/initialized`: the client has read the `initialize` result and the
    /// session is open.
    Initialized,
    /// `notifications/roots/list_changed`: the folders the client shares changed; a
    /// `roots/list` tells which they are now.
    RootsListChanged,
    /// A method this server's engine does not type (an extension's, or a newer revision's).
    Other {
        method: String,
        params: Option<Value>,
    },
}

impl ClientNotification {
    /// Their params carry no more than `_meta`: the method alone says what happened.
    pub(super) fn parse(method: String, params: Option<Value>) -> Self {
        match method.as_str() {
            method::INITIALIZED => Self::Initialized,
            method::ROOTS_LIST_CHANGED => Self::RootsListChanged,
            _ => Self::Other { method, params },
        }
    }
}

//! The per-request `_meta` of the 2026-07-28 revision: every request says which revision
//! it speaks, who the client is and what it offers, since no handshake said it before.

use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Map, Value};

use super::ClientError;
use crate::types::{ClientCapabilities, Implementation, LoggingLevel, meta_key};
use crate::version::ProtocolVersion;

tokio::task_local! {
    /// The capabilities the requests made on this task declare, in place of the client's.
    static DECLARING: ClientCapabilities;
    /// The log level the requests made on this task ask for, besides the client's own.
    static LOGGING_AT: LoggingLevel;
}

/// Runs `requests` with the stateless era's requests made in it declaring `declared` as the
/// client's capabilities, in place of those the client was made with: for a client that
/// makes a request on behalf of another (a gateway, for its agent), so that a server asks
/// only what can be answered.
pub async fn declaring<F: std::future::Future>(
    declared: ClientCapabilities,
    requests: F,
) -> F::Output {
    DECLARING.scope(declared, requests).await
}

/// Runs `requests` with the stateless era's requests made in it asking for log messages at
/// `level` (or the client's own level, where that one asks for more): for a gateway whose
/// agent asked for a level, since the revision's servers log only to a request that names one.
pub async fn logging_at<F: std::future::Future>(level: LoggingLevel, requests: F) -> F::Output {
    LOGGING_AT.scope(level, requests).await
}

pub(crate) struct Stamp {
    /// The keys every request carries.
    meta: Map<String, Value>,
    /// The log level asked for with [`super::Client::set_logging_level`]: sent with every
    /// request from then on, since the revision has no `logging/setLevel`.
    level: Mutex<Option<LoggingLevel>>,
}

impl Stamp {
    pub(crate) fn new(
        version: ProtocolVersion,
        client_info: &Implementation,
        capabilities: &ClientCapabilities,
    ) -> Self {
        let mut meta = Map::new();
        meta.insert(meta_key::PROTOCOL_VERSION.into(), version.as_str().into());
        meta.insert(
            meta_key::CLIENT_INFO.into(),
            serde_json::to_value(client_info).unwrap_or_default(),
        );
        // Tasks are not among this revision's capabilities (they are an extension there).
        let stateless = ClientCapabilities {
            tasks: None,
            ..capabilities.clone()
        };
        meta.insert(
            meta_key::CLIENT_CAPABILITIES.into(),
            serde_json::to_value(stateless).unwrap_or_else(|_| Value::Object(Map::new())),
        );
        Self {
            meta,
            level: Mutex::new(None),
        }
    }

    /// The same stamp for another revision (the one a server listed when it refused ours).
    pub(crate) fn with_version(&self, version: ProtocolVersion) -> Self {
        let mut meta = self.meta.clone();
        meta.insert(meta_key::PROTOCOL_VERSION.into(), version.as_str().into());
        Self {
            meta,
            level: Mutex::new(*self.level.lock().unwrap_or_else(|p| p.into_inner())),
        }
    }

    pub(crate) fn set_level(&self, level: LoggingLevel) {
        *self.level.lock().unwrap_or_else(|p| p.into_inner()) = Some(level);
    }

    /// The params with the revision's keys merged into their `_meta` (keys the caller set,
    /// such as a progress token, stay).
    pub(crate) fn stamp<P: Serialize + ?Sized>(&self, params: &P) -> Result<Value, ClientError> {
        let mut params = match serde_json::to_value(params) {
            Ok(Value::Object(map)) => map,
            Ok(Value::Null) => Map::new(),
            Ok(other) => {
                return Err(ClientError::InvalidParams(format!(
                    "request params must be an object, not {other}"
                )));
            }
            Err(e) => return Err(ClientError::InvalidParams(e.to_string())),
        };
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if !meta.is_object() {
            *meta = Value::Object(Map::new());
        }
        if let Value::Object(meta) = meta {
            for (key, value) in &self.meta {
                meta.insert(key.clone(), value.clone());
            }
            if let Ok(Ok(declared)) = DECLARING.try_with(|declared| serde_json::to_value(declared))
            {
                meta.insert(meta_key::CLIENT_CAPABILITIES.into(), declared);
            }
            let own = *self.level.lock().unwrap_or_else(|p| p.into_inner());
            let asked = LOGGING_AT.try_with(|level| *level).ok();
            if let Some(level) = own.into_iter().chain(asked).min() {
                meta.insert(
                    meta_key::LOG_LEVEL.into(),
                    serde_json::to_value(level).unwrap_or_default(),
                );
            }
        }
        Ok(Value::Object(params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_made_on_anothers_behalf_declares_what_that_one_can_answer() {
        let everything: ClientCapabilities = serde_json::from_value(
            serde_json::json!({"sampling": {}, "elicitation": {}, "roots": {}}),
        )
        .unwrap();
        let stamp = Stamp::new(
            ProtocolVersion::V2026_07_28,
            &Implementation::new("host", "1.0"),
            &everything,
        );
        let sampling: ClientCapabilities =
            serde_json::from_value(serde_json::json!({"sampling": {}})).unwrap();
        let key = meta_key::CLIENT_CAPABILITIES;
        let stamped = declaring(sampling, async { stamp.stamp(&Map::new()).unwrap() }).await;
        assert_eq!(stamped["_meta"][key], serde_json::json!({"sampling": {}}));
        let own = stamp.stamp(&Map::new()).unwrap();
        assert_eq!(own["_meta"][key]["elicitation"], serde_json::json!({}));
    }

    #[test]
    fn the_revision_identity_and_capabilities_join_what_the_caller_put_in_meta() {
        let stamp = Stamp::new(
            ProtocolVersion::V2026_07_28,
            &Implementation::new("host", "1.0"),
            &ClientCapabilities::default(),
        );
        let params = serde_json::json!({"name": "add", "_meta": {"progressToken": 7}});
        let stamped = stamp.stamp(&params).unwrap();
        assert_eq!(
            stamped,
            serde_json::json!({"name": "add", "_meta": {
                "progressToken": 7,
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "host", "version": "1.0"},
                "io.modelcontextprotocol/clientCapabilities": {}
            }})
        );
        stamp.set_level(LoggingLevel::Warning);
        let stamped = stamp.stamp(&Map::new()).unwrap();
        assert_eq!(
            stamped["_meta"]["io.modelcontextprotocol/logLevel"],
            "warning"
        );
    }

    #[test]
    fn a_client_that_renders_views_declares_the_apps_extension_on_each_request() {
        let capabilities = ClientCapabilities::default().with_apps();
        let stamp = Stamp::new(
            ProtocolVersion::V2026_07_28,
            &Implementation::new("host", "1.0"),
            &capabilities,
        );
        let stamped = stamp.stamp(&Map::new()).unwrap();
        assert_eq!(
            stamped["_meta"][meta_key::CLIENT_CAPABILITIES],
            serde_json::json!({"extensions": {"io.modelcontextprotocol/ui":
                {"mimeTypes": ["text/html;profile=mcp-app"]}}})
        );
        assert!(capabilities.renders_apps());
    }

    #[tokio::test]
    async fn a_request_made_on_anothers_behalf_asks_for_the_more_detailed_level() {
        let stamp = Stamp::new(
            ProtocolVersion::V2026_07_28,
            &Implementation::new("host", "1.0"),
            &ClientCapabilities::default(),
        );
        let key = meta_key::LOG_LEVEL;
        let asked = |level| logging_at(level, async { stamp.stamp(&Map::new()).unwrap() });
        assert_eq!(asked(LoggingLevel::Error).await["_meta"][key], "error");
        stamp.set_level(LoggingLevel::Warning);
        assert_eq!(asked(LoggingLevel::Debug).await["_meta"][key], "debug");
        assert_eq!(asked(LoggingLevel::Error).await["_meta"][key], "warning");
    }
}

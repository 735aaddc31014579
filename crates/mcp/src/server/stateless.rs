//! The server side of the 2026-07-28 revision's stateless requests: each one says in its
//! `_meta` which revision it speaks, who the client is and what it can answer, since no
//! handshake said it before. A server reads that here, refuses a request that lacks it or
//! names a revision it does not speak with the revision's own errors, and marks its results
//! as the revision asks (`resultType`, its identity, caching hints).

use serde_json::{Map, Value, json};

use crate::ProtocolVersion;
use crate::jsonrpc::{ErrorObject, code};
use crate::types::{ClientCapabilities, Implementation, LoggingLevel, meta_key};

/// What one stateless request says of itself.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestMeta {
    pub version: ProtocolVersion,
    /// Optional in the revision: a client may leave itself unnamed.
    pub client_info: Option<Implementation>,
    pub capabilities: ClientCapabilities,
    /// The least severe log level the client wants for this request; none, no log messages.
    pub log_level: Option<LoggingLevel>,
}

/// Whether a request speaks the stateless era: its `_meta` names a protocol version (a
/// request of a session opened by `initialize` never does).
pub fn is_stateless(params: Option<&Value>) -> bool {
    meta_of(params).is_some_and(|meta| meta.contains_key(meta_key::PROTOCOL_VERSION))
}

fn meta_of(params: Option<&Value>) -> Option<&Map<String, Value>> {
    params?.get("_meta")?.as_object()
}

/// The request's `_meta`, checked as the revision says: the protocol version and the client
/// capabilities are required (-32602 without them), and the version must be a stateless
/// one of `speaks` (-32022, listing `listed`, otherwise).
pub fn read_meta(
    params: Option<&Value>,
    speaks: &[ProtocolVersion],
    listed: &[ProtocolVersion],
) -> Result<RequestMeta, ErrorObject> {
    let invalid = |what: &str| {
        ErrorObject::invalid_params(format!(
            "{what}: every request of the 2026-07-28 revision carries `_meta` with `{}` and `{}`",
            meta_key::PROTOCOL_VERSION,
            meta_key::CLIENT_CAPABILITIES
        ))
    };
    let meta = meta_of(params).ok_or_else(|| invalid("the request has no `_meta`"))?;
    let requested = meta
        .get(meta_key::PROTOCOL_VERSION)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("`_meta` names no protocol version"))?;
    let capabilities = meta
        .get(meta_key::CLIENT_CAPABILITIES)
        .filter(|c| c.is_object())
        .ok_or_else(|| invalid("`_meta` has no client capabilities"))?;
    let version = requested
        .parse::<ProtocolVersion>()
        .ok()
        .filter(|v| speaks.contains(v))
        .ok_or_else(|| unsupported_version(requested, listed))?;
    let capabilities = serde_json::from_value(capabilities.clone())
        .map_err(|e| ErrorObject::invalid_params(format!("the client capabilities: {e}")))?;
    let log_level = match meta.get(meta_key::LOG_LEVEL) {
        None | Some(Value::Null) => None,
        Some(level) => Some(
            serde_json::from_value(level.clone())
                .map_err(|_| ErrorObject::invalid_params(format!("{level} is not a log level")))?,
        ),
    };
    Ok(RequestMeta {
        version,
        client_info: meta
            .get(meta_key::CLIENT_INFO)
            .and_then(|info| serde_json::from_value(info.clone()).ok()),
        capabilities,
        log_level,
    })
}

/// `UnsupportedProtocolVersionError`: the versions the server speaks, and the one asked for.
pub fn unsupported_version(requested: &str, listed: &[ProtocolVersion]) -> ErrorObject {
    let supported: Vec<&str> = listed.iter().map(|v| v.as_str()).collect();
    ErrorObject {
        code: code::UNSUPPORTED_PROTOCOL_VERSION,
        message: format!(
            "Unsupported protocol version {requested:?}: this server speaks {}",
            supported.join(", ")
        ),
        data: Some(Box::new(
            json!({"supported": supported, "requested": requested}),
        )),
    }
}

/// A result as the revision sends it: `resultType: complete` (unless it is an interim
/// one) and the server's identity in `_meta` (beside what the result's own `_meta` holds).
pub fn complete(mut result: Value, server: &Implementation) -> Value {
    if let Value::Object(fields) = &mut result {
        fields
            .entry("resultType")
            .or_insert_with(|| json!("complete"));
        let meta = fields.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            meta.insert(
                meta_key::SERVER_INFO.into(),
                serde_json::to_value(server).unwrap_or_default(),
            );
        }
    }
    result
}

/// The caching hints of a result the revision makes cacheable: fresh for `ttl_ms`, for this
/// client alone when `private`.
pub fn with_cache_hints(mut result: Value, ttl_ms: u64, private: bool) -> Value {
    if let Value::Object(fields) = &mut result {
        fields.insert("ttlMs".into(), json!(ttl_ms));
        let scope = if private { "private" } else { "public" };
        fields.insert("cacheScope".into(), json!(scope));
    }
    result
}

/// The HTTP status a stateless request's error is answered with, as the revision's
/// Streamable HTTP binding says: 404 for a method the server does not have, 400 for the
/// revision's own refusals (a header that does not match, a revision or a capability
/// missing), 200 for any other error. (A request without its `_meta` is 400 too: the
/// transport checks that before any handler sees it.)
pub fn http_status(error_code: i64) -> u16 {
    match error_code {
        code::METHOD_NOT_FOUND => 404,
        code::HEADER_MISMATCH
        | code::MISSING_REQUIRED_CLIENT_CAPABILITY
        | code::UNSUPPORTED_PROTOCOL_VERSION => 400,
        _ => 200,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODERN: &[ProtocolVersion] = &[ProtocolVersion::V2026_07_28];

    fn params(meta: Value) -> Value {
        json!({"name": "x", "_meta": meta})
    }

    #[test]
    fn a_request_names_its_revision_and_capabilities_or_is_refused() {
        let good = params(json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
            "io.modelcontextprotocol/logLevel": "warning"
        }));
        assert!(is_stateless(Some(&good)));
        let meta = read_meta(Some(&good), MODERN, &ProtocolVersion::NEWEST_FIRST).unwrap();
        assert_eq!(meta.version, ProtocolVersion::V2026_07_28);
        assert!(meta.capabilities.sampling.is_some());
        assert_eq!(meta.client_info, None);
        assert_eq!(meta.log_level, Some(LoggingLevel::Warning));

        let cases = [
            json!({"name": "x"}),
            params(json!({"io.modelcontextprotocol/clientCapabilities": {}})),
            params(json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})),
        ];
        for case in cases {
            let error = read_meta(Some(&case), MODERN, MODERN).unwrap_err();
            assert_eq!(error.code, code::INVALID_PARAMS, "{case}");
        }
    }

    #[test]
    fn a_revision_not_spoken_is_refused_with_those_that_are() {
        for asked in ["v999.0.0", "2025-11-25"] {
            let request = params(json!({
                "io.modelcontextprotocol/protocolVersion": asked,
                "io.modelcontextprotocol/clientCapabilities": {}
            }));
            let error =
                read_meta(Some(&request), MODERN, &ProtocolVersion::NEWEST_FIRST).unwrap_err();
            assert_eq!(error.code, code::UNSUPPORTED_PROTOCOL_VERSION);
            let data = error.data.unwrap();
            assert_eq!(data["requested"], asked);
            assert_eq!(data["supported"][0], "2026-07-28");
            assert_eq!(http_status(error.code), 400);
        }
    }

    #[test]
    fn a_result_is_marked_complete_with_the_servers_identity_and_hints() {
        let server = Implementation::new("gateway", "1.0");
        let result = with_cache_hints(complete(json!({"tools": []}), &server), 0, true);
        assert_eq!(
            result,
            json!({"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                   "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "gateway", "version": "1.0"}}})
        );
    }
}

//! The JSON-RPC 2.0 envelope: requests, notifications and responses, one per line or
//! event, as MCP frames them.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A request id: unique per session, never null.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    Number(i64),
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// Standard and MCP-specific error codes.
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// The resource a request named does not exist.
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// The server needs the user to complete a URL elicitation first (2025-11-25).
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
    /// What MCP's examples use when the user declined a request such as sampling.
    pub const USER_REJECTED: i64 = -1;
}

/// The `error` member of a failed response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} (code {code})")]
pub struct ErrorObject {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Box<Value>>,
}

impl ErrorObject {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            code::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
        )
    }

    pub fn invalid_params(detail: impl fmt::Display) -> Self {
        Self::new(code::INVALID_PARAMS, format!("invalid params: {detail}"))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub id: RequestId,
    pub method: String,
    pub params: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub method: String,
    pub params: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub id: RequestId,
    pub outcome: Result<Value, ErrorObject>,
}

/// One JSON-RPC message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Request(Request),
    Notification(Notification),
    Response(Response),
    /// An error response whose id is null: the peer could not read one of our messages.
    OrphanError(ErrorObject),
}

/// Why a frame is not a JSON-RPC message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("not a JSON-RPC 2.0 message: {0}")]
    NotJsonRpc(&'static str),
}

/// The members any message may have; classified into a [`Message`] afterwards.
#[derive(Deserialize)]
struct RawMessage {
    jsonrpc: Option<Version>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    method: Option<String>,
    params: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: Option<Value>,
    error: Option<ErrorObject>,
}

/// Whether `jsonrpc` is `"2.0"`, checked without keeping the string.
struct Version(bool);

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Version;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Version, E> {
                Ok(Version(v == "2.0"))
            }
        }
        d.deserialize_str(Visitor)
    }
}

/// Distinguishes a member that is absent (`None`) from one that is `null` (`Some(Null)`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The envelope of an outgoing message, with its params or result of any serializable type.
#[derive(Serialize)]
struct Out<'a, P: ?Sized> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a P>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a ErrorObject>,
}

impl<'a, P: Serialize + ?Sized> Out<'a, P> {
    fn new() -> Self {
        Self {
            jsonrpc: "2.0",
            id: None,
            method: None,
            params: None,
            result: None,
            error: None,
        }
    }
}

/// A request as one line of JSON, its params serialized straight from their type (no
/// intermediate `Value` tree).
pub fn encode_request<P: Serialize + ?Sized>(
    id: &RequestId,
    method: &str,
    params: Option<&P>,
) -> Result<String, serde_json::Error> {
    let mut out = Out::new();
    out.id = Some(id);
    out.method = Some(method);
    out.params = params;
    serde_json::to_string(&out)
}

/// A notification as one line of JSON.
pub fn encode_notification<P: Serialize + ?Sized>(
    method: &str,
    params: Option<&P>,
) -> Result<String, serde_json::Error> {
    let mut out = Out::new();
    out.method = Some(method);
    out.params = params;
    serde_json::to_string(&out)
}

impl Message {
    /// Parses one frame: a message, or (2025-03-26) a batch of them.
    pub fn parse_frame(frame: &str) -> Result<Vec<Message>, FrameError> {
        if frame.trim_start().starts_with('[') {
            let items: Vec<Value> =
                serde_json::from_str(frame).map_err(|e| FrameError::NotJson(e.to_string()))?;
            if items.is_empty() {
                return Err(FrameError::NotJsonRpc("empty batch"));
            }
            return items.into_iter().map(Self::from_value).collect();
        }
        // A single message is read straight into its members: no tree for the envelope.
        let raw: RawMessage = serde_json::from_str(frame).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => {
                FrameError::NotJsonRpc("members of the wrong type")
            }
            _ => FrameError::NotJson(e.to_string()),
        })?;
        Ok(vec![Self::from_raw(raw)?])
    }

    pub fn from_value(value: Value) -> Result<Self, FrameError> {
        let raw: RawMessage = serde_json::from_value(value)
            .map_err(|_| FrameError::NotJsonRpc("members of the wrong type"))?;
        Self::from_raw(raw)
    }

    fn from_raw(raw: RawMessage) -> Result<Self, FrameError> {
        if !matches!(raw.jsonrpc, Some(Version(true))) {
            return Err(FrameError::NotJsonRpc("`jsonrpc` is not \"2.0\""));
        }
        let id = match raw.id {
            None => None,
            Some(Value::Null) => {
                return match raw.error {
                    Some(error) if raw.method.is_none() => Ok(Self::OrphanError(error)),
                    _ => Err(FrameError::NotJsonRpc("null id")),
                };
            }
            Some(v) => Some(
                serde_json::from_value::<RequestId>(v)
                    .map_err(|_| FrameError::NotJsonRpc("id is neither a string nor an integer"))?,
            ),
        };
        match (raw.method, id, raw.result, raw.error) {
            (Some(method), Some(id), None, None) => Ok(Self::Request(Request {
                id,
                method,
                params: raw.params,
            })),
            (Some(method), None, None, None) => Ok(Self::Notification(Notification {
                method,
                params: raw.params,
            })),
            (None, Some(id), Some(result), None) => Ok(Self::Response(Response {
                id,
                outcome: Ok(result),
            })),
            (None, Some(id), None, Some(error)) => Ok(Self::Response(Response {
                id,
                outcome: Err(error),
            })),
            _ => Err(FrameError::NotJsonRpc(
                "neither a request, a notification nor a response",
            )),
        }
    }

    /// The message as one line of JSON (no newline inside, as stdio framing requires).
    pub fn to_json(&self) -> String {
        let mut out: Out<'_, Value> = Out::new();
        let json = match self {
            Self::Request(r) => {
                out.id = Some(&r.id);
                out.method = Some(&r.method);
                out.params = r.params.as_ref();
                serde_json::to_string(&out)
            }
            Self::Notification(n) => {
                out.method = Some(&n.method);
                out.params = n.params.as_ref();
                serde_json::to_string(&out)
            }
            Self::Response(r) => {
                out.id = Some(&r.id);
                match &r.outcome {
                    Ok(result) => out.result = Some(result),
                    Err(error) => out.error = Some(error),
                }
                serde_json::to_string(&out)
            }
            Self::OrphanError(error) => serde_json::to_string(&serde_json::json!({
                "jsonrpc": "2.0", "id": null, "error": error,
            })),
        };
        // Serializing a `Value` tree into a string cannot fail.
        json.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(frame: &str) -> Message {
        let mut all = Message::parse_frame(frame).unwrap();
        assert_eq!(all.len(), 1);
        all.remove(0)
    }

    #[test]
    fn each_kind_of_message_round_trips_to_the_same_json() {
        for frame in [
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"cursor": "c"}}),
            json!({"jsonrpc": "2.0", "id": "a-1", "method": "ping"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 7, "result": {}}),
            json!({"jsonrpc": "2.0", "id": "x", "error": {"code": -32601, "message": "no", "data": [1]}}),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "bad"}}),
        ] {
            let message = one(&frame.to_string());
            let back: Value = serde_json::from_str(&message.to_json()).unwrap();
            assert_eq!(back, frame);
        }
    }

    #[test]
    fn messages_are_classified_by_their_members() {
        assert!(
            matches!(one(r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#), Message::Request(r) if r.id == RequestId::Number(1))
        );
        assert!(matches!(
            one(r#"{"jsonrpc":"2.0","method":"m"}"#),
            Message::Notification(_)
        ));
        assert!(matches!(
            one(r#"{"jsonrpc":"2.0","id":"1","result":null}"#),
            Message::Response(Response {
                id: RequestId::String(_),
                outcome: Ok(Value::Null)
            })
        ));
    }

    #[test]
    fn a_batch_yields_each_message() {
        let all = Message::parse_frame(
            r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":{}}]"#,
        )
        .unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(
            Message::parse_frame("[]"),
            Err(FrameError::NotJsonRpc("empty batch"))
        );
    }

    #[test]
    fn malformed_frames_are_clear_errors() {
        let cases = [
            ("{not json", "not JSON"),
            (r#"{"id":1,"method":"m"}"#, "`jsonrpc` is not \"2.0\""),
            (r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, "null id"),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#,
                "neither a string nor an integer",
            ),
            (r#"{"jsonrpc":"2.0","id":1}"#, "neither a request"),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}"#,
                "neither a request",
            ),
            (r#"{"jsonrpc":"2.0","method":5}"#, "wrong type"),
            ("42", "wrong type"),
        ];
        for (frame, expected) in cases {
            let err = Message::parse_frame(frame).unwrap_err().to_string();
            assert!(err.contains(expected), "{frame}: {err}");
        }
    }
}

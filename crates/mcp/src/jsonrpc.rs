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
    /// 2026-07-28: the HTTP headers do not match the body, or one is missing.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the request needs a capability the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the server does not speak the request's protocol version.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

    /// The errors only a server of the 2026-07-28 revision or later sends: one of them
    /// tells that a server is stateless, whatever it refused.
    pub const fn is_stateless(code: i64) -> bool {
        matches!(
            code,
            HEADER_MISMATCH | MISSING_REQUIRED_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION
        )
    }
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

/// A request's params as a server reads them (none read as `{}`), or the -32602 answer.
pub fn read_params<T: serde::de::DeserializeOwned>(
    params: Option<Value>,
) -> Result<T, ErrorObject> {
    let params = params.unwrap_or_else(|| Value::Object(serde_json::Map::new()));
    serde_json::from_value(params).map_err(ErrorObject::invalid_params)
}

/// A result as a server answers it, or the -32603 answer if it cannot be encoded.
pub fn encode_result(result: impl Serialize) -> Result<Value, ErrorObject> {
    serde_json::to_value(result)
        .map_err(|e| ErrorObject::new(code::INTERNAL_ERROR, format!("encoding the result: {e}")))
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
    #[error("the message is too large: {bytes} bytes or more, over the limit of {limit}")]
    TooLarge { bytes: usize, limit: usize },
}

impl FrameError {
    /// The JSON-RPC code that answers a peer's message spoiled this way.
    pub fn code(&self) -> i64 {
        match self {
            Self::NotJson(_) => code::PARSE_ERROR,
            Self::NotJsonRpc(_) | Self::TooLarge { .. } => code::INVALID_REQUEST,
        }
    }
}

/// A message that could not be read, with what could be read of it: the id says whose
/// answer or request it was, so that a caller fails at once instead of waiting, and a
/// request gets an error back.
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    pub id: Option<RequestId>,
    pub kind: Kind,
    pub error: FrameError,
}

/// What a message seems to be, judged by its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    /// It has a `method`: a request (with an id) or a notification.
    Request,
    /// It has a `result` or an `error` and no `method`.
    Response,
    #[default]
    Unknown,
}

impl Unreadable {
    /// Reads what it can of a message that did not parse: its id and its kind, from its
    /// top-level members, as far as the text goes (it may be the start of a message).
    pub fn of(text: &str, error: FrameError) -> Self {
        let mut peek = Peek::default();
        let _ = serde::Deserializer::deserialize_map(
            &mut serde_json::Deserializer::from_str(text),
            PeekVisitor(&mut peek),
        );
        Self {
            id: peek.id,
            kind: peek.kind,
            error,
        }
    }

    /// The same for a message too large to keep: what its first and last bytes say. Most
    /// encoders write `id` first; some (the TypeScript SDK) write it last.
    pub fn of_ends(head: &[u8], tail: &[u8], error: FrameError) -> Self {
        let mut unreadable = Self::of(&String::from_utf8_lossy(head), error);
        if unreadable.id.is_none() {
            unreadable.id = trailing_id(&String::from_utf8_lossy(tail));
        }
        unreadable
    }
}

/// The value of the message's last `id` member in the end of a message, if it is an id.
/// The end is read backwards from the message's closing brace, each string skipped whole
/// and the nesting counted, so that an `"id"` inside params, a result or a string is not
/// taken for the message's.
fn trailing_id(tail: &str) -> Option<RequestId> {
    let bytes = tail.trim_end().as_bytes();
    let mut at = bytes.len().checked_sub(1)?;
    if bytes[at] != b'}' {
        return None;
    }
    // How deep `at` is inside the message's members.
    let mut depth = 0usize;
    while at > 0 {
        at -= 1;
        match bytes[at] {
            b'}' | b']' => depth += 1,
            // At the message's opening brace: it has no id member.
            b'{' | b'[' => depth = depth.checked_sub(1)?,
            b'"' => {
                let close = at;
                at = opening_quote(&bytes[..close])?;
                let value = tail[close + 1..].trim_start().strip_prefix(':');
                if let (0, Some(value)) = (depth, value)
                    && serde_json::from_str::<String>(&tail[at..=close]).ok()? == "id"
                {
                    return serde_json::Deserializer::from_str(value)
                        .into_iter::<RequestId>()
                        .next()?
                        .ok();
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the string ending at the end of `bytes` opens: the last quote no backslash
/// escapes. `None` when it opens before the end kept, or when backslashes run to the start
/// of what is kept (whether they escape the quote cannot be told).
fn opening_quote(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    loop {
        let at = bytes[..end].iter().rposition(|&b| b == b'"')?;
        let backslashes = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        if backslashes == at {
            return None;
        }
        if backslashes % 2 == 0 {
            return Some(at);
        }
        end = at;
    }
}

#[derive(Default)]
struct Peek {
    id: Option<RequestId>,
    kind: Kind,
}

/// Walks the top-level members of an object, noting the id and the kind as it goes, so
/// that what was seen survives an error further on.
struct PeekVisitor<'a>(&'a mut Peek);

impl<'de> serde::de::Visitor<'de> for PeekVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        use serde::de::IgnoredAny;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "id" => self.0.id = map.next_value::<Option<RequestId>>().ok().flatten(),
                "method" => {
                    self.0.kind = Kind::Request;
                    map.next_value::<IgnoredAny>()?;
                }
                "result" | "error" => {
                    if self.0.kind == Kind::Unknown {
                        self.0.kind = Kind::Response;
                    }
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// What one frame (a line, a body, an event) carried: one message, or a batch of them,
/// each read on its own so that one bad element loses nothing beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub items: Vec<Result<Message, Unreadable>>,
    /// Whether the frame was a batch (2025-03-26): requests in it are answered in a batch.
    pub batch: bool,
}

impl Frame {
    pub fn decode(frame: &str) -> Self {
        if !frame.trim_start().starts_with('[') {
            return Self {
                items: vec![Message::parse_one(frame)],
                batch: false,
            };
        }
        match serde_json::from_str::<Vec<Box<serde_json::value::RawValue>>>(frame) {
            Ok(items) if items.is_empty() => Self {
                items: vec![Err(Unreadable {
                    id: None,
                    kind: Kind::Unknown,
                    error: FrameError::NotJsonRpc("empty batch"),
                })],
                batch: false,
            },
            Ok(items) => Self {
                items: items
                    .iter()
                    .map(|item| Message::parse_one(item.get()))
                    .collect(),
                batch: true,
            },
            Err(e) => Self {
                items: vec![Err(Unreadable {
                    id: None,
                    kind: Kind::Unknown,
                    error: FrameError::NotJson(e.to_string()),
                })],
                batch: false,
            },
        }
    }
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
    #[serde(default, deserialize_with = "error_object")]
    error: Option<ErrorObject>,
}

/// An error member, which must be an object: serde would read an array as the list of a
/// struct's members.
fn error_object<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ErrorObject>, D::Error> {
    use serde::de::Error;
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        object @ Value::Object(_) => ErrorObject::deserialize(object)
            .map(Some)
            .map_err(D::Error::custom),
        _ => Err(D::Error::custom("the error member is not an object")),
    }
}

impl RawMessage {
    fn peek_id(&self) -> Option<RequestId> {
        self.id
            .as_ref()
            .and_then(|id| RequestId::deserialize(id).ok())
    }

    fn kind(&self) -> Kind {
        match (&self.method, &self.result, &self.error) {
            (Some(_), _, _) => Kind::Request,
            (None, Some(_), _) | (None, _, Some(_)) => Kind::Response,
            _ => Kind::Unknown,
        }
    }
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
    /// Parses one frame: a message, or (2025-03-26) a batch of them; the first message
    /// that cannot be read fails the whole frame (see [`Frame::decode`] to keep the rest).
    pub fn parse_frame(frame: &str) -> Result<Vec<Message>, FrameError> {
        Frame::decode(frame)
            .items
            .into_iter()
            .map(|item| item.map_err(|unreadable| unreadable.error))
            .collect()
    }

    /// One message, read straight into its members: no tree for the envelope.
    fn parse_one(text: &str) -> Result<Self, Unreadable> {
        // Serde would read an array as the list of a struct's members.
        if !text.trim_start().starts_with('{') {
            let error = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
                Ok(_) => FrameError::NotJsonRpc("not an object"),
                Err(e) => FrameError::NotJson(e.to_string()),
            };
            return Err(Unreadable::of(text, error));
        }
        let raw: RawMessage = serde_json::from_str(text).map_err(|e| {
            let error = match e.classify() {
                serde_json::error::Category::Data => {
                    FrameError::NotJsonRpc("members of the wrong type")
                }
                _ => FrameError::NotJson(e.to_string()),
            };
            Unreadable::of(text, error)
        })?;
        let (id, kind) = (raw.peek_id(), raw.kind());
        Self::from_raw(raw).map_err(|error| Unreadable { id, kind, error })
    }

    pub fn from_value(value: Value) -> Result<Self, FrameError> {
        if !value.is_object() {
            return Err(FrameError::NotJsonRpc("not an object"));
        }
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
                    Some(error) if raw.method.is_none() && raw.result.is_none() => {
                        Ok(Self::OrphanError(error))
                    }
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
            // An error without an id says as much as one with a null id.
            (None, None, None, Some(error)) => Ok(Self::OrphanError(error)),
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
    fn the_id_read_from_the_end_of_a_message_is_its_own() {
        let of_end = |tail: &str| {
            let error = FrameError::TooLarge {
                bytes: 1 << 20,
                limit: 1 << 16,
            };
            Unreadable::of_ends(b"", tail.as_bytes(), error).id
        };
        // A notification too large to read, whose params end with an id of their own: no
        // request of the server's is answered for it.
        assert_eq!(of_end(r#"xx","data":{"id":3}}}"#), None);
        assert_eq!(
            of_end(r#"{"id":0,"params":{"id":""}}"#),
            Some(RequestId::Number(0))
        );
        // The id written last, as the TypeScript SDK does, however it is spelled.
        assert_eq!(
            of_end(r#"xx"}]},"id":"a\"id\":1"}"#),
            Some(RequestId::String(r#"a"id":1"#.into()))
        );
        assert_eq!(of_end(r#"{"\u0069d":0}"#), Some(RequestId::Number(0)));
        // A cut that leaves it unknown whether a quote is escaped tells nothing.
        assert_eq!(of_end(r#"\"id":1}"#), None);
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
            ("42", "not an object"),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":[-32600,"no"]}"#,
                "wrong type",
            ),
            (r#"[["2.0",1,"m"]]"#, "not an object"),
            (
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":""},"result":{}}"#,
                "null id",
            ),
        ];
        for (frame, expected) in cases {
            let err = Message::parse_frame(frame).unwrap_err().to_string();
            assert!(err.contains(expected), "{frame}: {err}");
        }
    }
}

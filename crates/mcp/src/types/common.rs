//! Shapes shared by every area: metadata, icons, annotations, roles, cursors, tokens, and
//! the serde helpers the other modules build on.

use std::fmt;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::lenient;

/// The free-form `_meta` object carried by most messages.
pub type Meta = Map<String, Value>;

/// An object whose presence declares a capability; its members are reserved for later use.
pub type CapabilityObject = Map<String, Value>;

/// An icon for a server, tool, resource or prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// An `https:` or `data:` URI.
    pub src: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub mime_type: Option<String>,
    /// Sizes such as `"48x48"` or `"any"`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub sizes: Option<Vec<String>>,
    /// `"light"` or `"dark"`: the background the icon is designed for.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub theme: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Hints on how a client should use or show an object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub audience: Option<Vec<Role>>,
    /// From 0 (least important) to 1 (most important).
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64",
        deserialize_with = "lenient::deserialize"
    )]
    pub priority: Option<f64>,
    /// An ISO 8601 timestamp.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub last_modified: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The sender or recipient of a message in a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// An opaque pagination cursor.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cursor(pub String);

impl Cursor {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for Cursor {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<&str> for Cursor {
    fn from(s: &str) -> Self {
        Self(s.to_owned())
    }
}

/// Defines an untagged "integer or string" enum, as JSON-RPC ids and progress tokens are.
macro_rules! integer_or_string {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(untagged)]
        pub enum $name {
            Number(i64),
            String(String),
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Self::Number(n) => write!(f, "{n}"),
                    Self::String(s) => write!(f, "{s:?}"),
                }
            }
        }

        impl From<i64> for $name {
            fn from(n: i64) -> Self {
                Self::Number(n)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self::String(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self::String(s.to_owned())
            }
        }
    };
}

integer_or_string!(
    /// A token, chosen by the requester, that ties progress notifications to a request.
    ProgressToken
);

integer_or_string!(
    /// A JSON-RPC request id as it appears inside params (e.g. `notifications/cancelled`).
    RequestIdValue
);

/// The name and version of an MCP client or server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    pub version: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub website_url: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub icons: Option<Vec<Icon>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Implementation {
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            version: version.into(),
            description: None,
            website_url: None,
            icons: None,
            extra: Map::new(),
        }
    }

    /// The title if there is one, else the name.
    pub fn display_name(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }
}

/// Params that carry nothing but `_meta` (e.g. `ping`, `roots/list`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestParams {
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

/// Params of a notification that carries nothing but `_meta` (e.g. `list_changed`).
pub type NotificationParams = RequestParams;

/// A result with no content, as answered to `ping`, `resources/subscribe` or `logging/setLevel`.
pub type EmptyResult = RequestParams;

/// Params of a paginated `*/list` request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PaginatedRequestParams {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cursor: Option<Cursor>,
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

impl PaginatedRequestParams {
    pub fn new(cursor: Option<Cursor>) -> Self {
        Self {
            cursor,
            ..Self::default()
        }
    }
}

/// One value or a list of values: sampling content may be either, and keeps its shape.
#[derive(Debug, Clone, PartialEq)]
pub enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    pub fn as_slice(&self) -> &[T] {
        match self {
            Self::One(one) => std::slice::from_ref(one),
            Self::Many(many) => many,
        }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    pub fn into_vec(self) -> Vec<T> {
        match self {
            Self::One(one) => vec![one],
            Self::Many(many) => many,
        }
    }
}

impl<T> From<T> for OneOrMany<T> {
    fn from(one: T) -> Self {
        Self::One(one)
    }
}

impl<T> From<Vec<T>> for OneOrMany<T> {
    fn from(many: Vec<T>) -> Self {
        Self::Many(many)
    }
}

impl<T: Serialize> Serialize for OneOrMany<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::One(one) => one.serialize(serializer),
            Self::Many(many) => many.serialize(serializer),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Array(items) => items
                .into_iter()
                .map(serde_json::from_value)
                .collect::<Result<_, _>>()
                .map(Self::Many),
            one => serde_json::from_value(one).map(Self::One),
        }
        .map_err(D::Error::custom)
    }
}

/// Serializes a struct with a `"type"` member in front of its own fields.
#[derive(Serialize)]
pub(crate) struct Tagged<'a, T> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(flatten)]
    inner: &'a T,
}

impl<'a, T> Tagged<'a, T> {
    pub(crate) fn new(kind: &'a str, inner: &'a T) -> Self {
        Self { kind, inner }
    }
}

/// The `type` of a JSON object that must have one: an error for anything else.
pub(crate) fn type_tag(value: &Value, what: &str) -> Result<String, serde_json::Error> {
    let Value::Object(object) = value else {
        return Err(serde_json::Error::custom(format!(
            "{what}: expected an object"
        )));
    };
    match object.get("type") {
        Some(Value::String(tag)) => Ok(tag.clone()),
        Some(_) => Err(serde_json::Error::custom(format!(
            "{what}: `type` must be a string"
        ))),
        None => Err(serde_json::Error::custom(format!(
            "{what}: missing field `type`"
        ))),
    }
}

/// Deserializes the body of a tagged object, without its `type` member.
pub(crate) fn untagged_body<T: DeserializeOwned>(
    mut value: Value,
    what: &str,
) -> Result<T, serde_json::Error> {
    if let Value::Object(object) = &mut value {
        object.remove("type");
    }
    serde_json::from_value(value).map_err(|e| serde_json::Error::custom(format!("{what}: {e}")))
}

/// `f64` fields written as integers when they hold one, as JavaScript writes numbers, so
/// that `50` read from the wire is written back as `50`, not `50.0`.
pub(crate) mod number {
    use serde::{Serialize, Serializer};
    use serde_json::Value;

    /// Beyond 2^53, an `f64` no longer holds every integer exactly.
    const EXACT: f64 = 9_007_199_254_740_992.0;

    pub(crate) fn f64<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        json(*value).serialize(serializer)
    }

    /// The JSON number, an integer when it holds one.
    pub(crate) fn json(value: f64) -> Value {
        if value.fract() == 0.0 && value.abs() <= EXACT {
            // Exact: the value is an integer within the range where f64 is exact.
            #[allow(clippy::cast_possible_truncation)]
            let integer = value as i64;
            Value::from(integer)
        } else {
            Value::from(value)
        }
    }

    pub(crate) fn opt_f64<S: Serializer>(
        value: &Option<f64>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => f64(v, serializer),
            None => serializer.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_floats_are_written_as_integers() {
        let a = Annotations {
            priority: Some(1.0),
            ..Annotations::default()
        };
        assert_eq!(serde_json::to_value(&a).unwrap(), json!({"priority": 1}));
        let a = Annotations {
            priority: Some(0.25),
            ..Annotations::default()
        };
        assert_eq!(serde_json::to_value(&a).unwrap(), json!({"priority": 0.25}));
    }

    #[test]
    fn tokens_are_integers_or_strings() {
        let n: ProgressToken = serde_json::from_value(json!(7)).unwrap();
        assert_eq!(n, ProgressToken::Number(7));
        let s: RequestIdValue = serde_json::from_value(json!("abc")).unwrap();
        assert_eq!(s, RequestIdValue::String("abc".into()));
        assert!(serde_json::from_value::<ProgressToken>(json!(1.5)).is_err());
        assert_eq!(serde_json::to_value(&n).unwrap(), json!(7));
    }

    #[test]
    fn one_or_many_keeps_its_shape() {
        let one: OneOrMany<u8> = serde_json::from_value(json!(1)).unwrap();
        assert_eq!(one.as_slice(), &[1]);
        assert_eq!(serde_json::to_value(&one).unwrap(), json!(1));
        let many: OneOrMany<u8> = serde_json::from_value(json!([1])).unwrap();
        assert_eq!(many, OneOrMany::Many(vec![1]));
        assert_eq!(serde_json::to_value(&many).unwrap(), json!([1]));
    }

    #[test]
    fn type_tags_are_required() {
        assert!(type_tag(&json!({"text": "x"}), "content").is_err());
        assert!(type_tag(&json!("text"), "content").is_err());
        assert_eq!(
            type_tag(&json!({"type": "text"}), "content").unwrap(),
            "text"
        );
    }
}

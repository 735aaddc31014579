//! Elicitation: a server asks the user, through the client, for input (form mode) or to
//! visit a URL (URL mode).

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::lenient;

use super::common::{Meta, number};
use super::elicitation_schema::ElicitationSchema;

/// Params of `elicitation/create`, by `mode` (absent means form, as in 2025-06-18).
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitRequestParams {
    Form(ElicitRequestFormParams),
    Url(ElicitRequestUrlParams),
}

impl ElicitRequestParams {
    pub fn message(&self) -> &str {
        match self {
            Self::Form(form) => &form.message,
            Self::Url(url) => &url.message,
        }
    }
}

impl Serialize for ElicitRequestParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Form(form) => form.serialize(serializer),
            Self::Url(url) => url.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ElicitRequestParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let parsed = match value.get("mode") {
            None | Some(Value::Null) => serde_json::from_value(value).map(Self::Form),
            Some(Value::String(mode)) if mode == "form" => {
                serde_json::from_value(value).map(Self::Form)
            }
            Some(Value::String(mode)) if mode == "url" => {
                serde_json::from_value(value).map(Self::Url)
            }
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "unknown elicitation mode {other} (expected \"form\" or \"url\")"
                )));
            }
        };
        parsed.map_err(|e| D::Error::custom(format!("invalid elicitation request: {e}")))
    }
}

impl From<ElicitRequestFormParams> for ElicitRequestParams {
    fn from(form: ElicitRequestFormParams) -> Self {
        Self::Form(form)
    }
}

impl From<ElicitRequestUrlParams> for ElicitRequestParams {
    fn from(url: ElicitRequestUrlParams) -> Self {
        Self::Url(url)
    }
}

/// The `mode` of a form request: `"form"`; `None` when the server omitted it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormMode {
    #[default]
    Form,
}

/// The `mode` of a URL request: always `"url"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UrlMode {
    #[default]
    Url,
}

/// A form-mode request: a message and the flat schema of the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitRequestFormParams {
    /// Absent in requests from 2025-06-18 servers, and then left absent when written back.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mode: Option<FormMode>,
    pub message: String,
    pub requested_schema: ElicitationSchema,
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

impl ElicitRequestFormParams {
    pub fn new(message: impl Into<String>, requested_schema: ElicitationSchema) -> Self {
        Self {
            mode: Some(FormMode::Form),
            message: message.into(),
            requested_schema,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// A URL-mode request: the user is sent to a URL, out of the client's sight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitRequestUrlParams {
    pub mode: UrlMode,
    pub message: String,
    pub url: String,
    /// Required by 2025-11-25, ties `notifications/elicitation/complete` to this request;
    /// absent in 2026-07-28.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub elicitation_id: Option<String>,
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

impl ElicitRequestUrlParams {
    pub fn new(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Self {
        Self {
            mode: UrlMode::Url,
            message: message.into(),
            url: url.into(),
            elicitation_id: Some(elicitation_id.into()),
            meta: None,
            extra: Map::new(),
        }
    }
}

/// A value of a form answer: a string, a number, a boolean, or the strings of a multi-select.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ElicitValue {
    String(String),
    Number(#[serde(serialize_with = "number::f64")] f64),
    Boolean(bool),
    StringArray(Vec<String>),
}

impl ElicitValue {
    /// What kind of value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::String(_) => "a string",
            Self::Number(_) => "a number",
            Self::Boolean(_) => "a boolean",
            Self::StringArray(_) => "a list",
        }
    }
}

impl From<String> for ElicitValue {
    fn from(s: String) -> Self {
        Self::String(s)
    }
}

impl From<&str> for ElicitValue {
    fn from(s: &str) -> Self {
        Self::String(s.to_owned())
    }
}

impl From<f64> for ElicitValue {
    fn from(n: f64) -> Self {
        Self::Number(n)
    }
}

impl From<bool> for ElicitValue {
    fn from(b: bool) -> Self {
        Self::Boolean(b)
    }
}

impl From<Vec<String>> for ElicitValue {
    fn from(v: Vec<String>) -> Self {
        Self::StringArray(v)
    }
}

/// The answer to a form: field name to value.
pub type ElicitContent = BTreeMap<String, ElicitValue>;

/// The result of `elicitation/create`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    pub action: ElicitAction,
    /// The form answer, with `accept` in form mode only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub content: Option<ElicitContent>,
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

impl ElicitResult {
    fn with(action: ElicitAction, content: Option<ElicitContent>) -> Self {
        Self {
            action,
            content,
            meta: None,
            extra: Map::new(),
        }
    }

    /// The user accepted: with the form answer in form mode, `None` in URL mode.
    pub fn accepted(content: Option<ElicitContent>) -> Self {
        Self::with(ElicitAction::Accept, content)
    }

    /// The user explicitly said no.
    pub fn declined() -> Self {
        Self::with(ElicitAction::Decline, None)
    }

    /// The user dismissed the request without choosing.
    pub fn cancelled() -> Self {
        Self::with(ElicitAction::Cancel, None)
    }
}

/// How the user answered an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}

/// Params of `notifications/elicitation/complete`: a URL-mode elicitation finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationCompleteNotificationParams {
    pub elicitation_id: String,
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

/// The `data` of a -32042 (URL elicitation required) error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UrlElicitationRequiredData {
    pub elicitations: Vec<ElicitRequestUrlParams>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_missing_mode_is_form_and_stays_missing() {
        let v = json!({
            "message": "Name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
        });
        let params: ElicitRequestParams = serde_json::from_value(v.clone()).unwrap();
        let ElicitRequestParams::Form(form) = &params else {
            panic!("{params:?}")
        };
        assert_eq!(form.mode, None);
        assert_eq!(serde_json::to_value(&params).unwrap(), v);
    }

    #[test]
    fn url_mode_and_unknown_modes() {
        let v = json!({"mode": "url", "message": "m", "url": "https://x", "elicitationId": "e"});
        let params: ElicitRequestParams = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(
            params,
            ElicitRequestParams::Url(ElicitRequestUrlParams::new("m", "https://x", "e"))
        );
        assert_eq!(serde_json::to_value(&params).unwrap(), v);
        let err = serde_json::from_value::<ElicitRequestParams>(json!({"mode": "telepathy"}))
            .unwrap_err();
        assert!(err.to_string().contains("telepathy"), "{err}");
        assert!(serde_json::from_value::<ElicitRequestParams>(json!({"mode": "url"})).is_err());
    }

    #[test]
    fn results_carry_typed_values() {
        let v = json!({"action": "accept", "content": {
            "name": "x", "age": 30, "ratio": 0.5, "ok": true, "colors": ["a", "b"]
        }});
        let result: ElicitResult = serde_json::from_value(v.clone()).unwrap();
        let content = result.content.as_ref().unwrap();
        assert_eq!(content["age"], ElicitValue::Number(30.0));
        assert_eq!(content["ok"], ElicitValue::Boolean(true));
        assert_eq!(
            content["colors"],
            ElicitValue::StringArray(vec!["a".into(), "b".into()])
        );
        assert_eq!(serde_json::to_value(&result).unwrap(), v);
        assert_eq!(
            serde_json::to_value(ElicitResult::declined()).unwrap(),
            json!({"action": "decline"})
        );
    }
}

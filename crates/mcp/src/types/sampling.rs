//! Sampling: a server asks the client's model for a message.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::lenient;

use super::common::{Meta, OneOrMany, Role, Tagged, number, type_tag, untagged_body};
use super::content::{AudioContent, ContentBlock, ImageContent, TextContent};
use super::tools::Tool;

/// Params of `sampling/createMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageRequestParams {
    pub messages: Vec<SamplingMessage>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub model_preferences: Option<ModelPreferences>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub system_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub include_context: Option<IncludeContext>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64",
        deserialize_with = "lenient::deserialize"
    )]
    pub temperature: Option<f64>,
    pub max_tokens: u64,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata, passed through.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub metadata: Option<Map<String, Value>>,
    /// Tools the model may use (2025-11-25; needs the `sampling.tools` capability).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tools: Option<Vec<Tool>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tool_choice: Option<ToolChoice>,
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

/// A message of a sampling conversation: one content block or several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    pub role: Role,
    pub content: OneOrMany<SamplingContent>,
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

impl SamplingMessage {
    pub fn new(role: Role, content: impl Into<OneOrMany<SamplingContent>>) -> Self {
        Self {
            role,
            content: content.into(),
            meta: None,
            extra: Map::new(),
        }
    }
}

/// A piece of sampling content, by its `type`.
#[derive(Debug, Clone, PartialEq)]
pub enum SamplingContent {
    Text(TextContent),
    Image(ImageContent),
    Audio(AudioContent),
    ToolUse(ToolUseContent),
    ToolResult(ToolResultContent),
    /// A `type` this crate does not know, kept exactly as received.
    Unknown(Value),
}

impl SamplingContent {
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// The `type` tag on the wire.
    pub fn type_name(&self) -> &str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::ToolUse(_) => "tool_use",
            Self::ToolResult(_) => "tool_result",
            Self::Unknown(value) => value.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

impl Serialize for SamplingContent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = self.type_name();
        match self {
            Self::Text(c) => Tagged::new(kind, c).serialize(serializer),
            Self::Image(c) | Self::Audio(c) => Tagged::new(kind, c).serialize(serializer),
            Self::ToolUse(c) => Tagged::new(kind, c).serialize(serializer),
            Self::ToolResult(c) => Tagged::new(kind, c).serialize(serializer),
            Self::Unknown(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for SamplingContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let kind = type_tag(&value, "sampling content").map_err(D::Error::custom)?;
        match kind.as_str() {
            "text" => untagged_body(value, "text content").map(Self::Text),
            "image" => untagged_body(value, "image content").map(Self::Image),
            "audio" => untagged_body(value, "audio content").map(Self::Audio),
            "tool_use" => untagged_body(value, "tool use").map(Self::ToolUse),
            "tool_result" => untagged_body(value, "tool result").map(Self::ToolResult),
            _ => Ok(Self::Unknown(value)),
        }
        .map_err(D::Error::custom)
    }
}

/// Text, image and audio blocks carry over; other blocks are kept as unknown content.
impl From<ContentBlock> for SamplingContent {
    fn from(block: ContentBlock) -> Self {
        match block {
            ContentBlock::Text(c) => Self::Text(c),
            ContentBlock::Image(c) => Self::Image(c),
            ContentBlock::Audio(c) => Self::Audio(c),
            ContentBlock::Unknown(value) => Self::Unknown(value),
            other => Self::Unknown(serde_json::to_value(&other).unwrap_or(Value::Null)),
        }
    }
}

impl From<TextContent> for SamplingContent {
    fn from(c: TextContent) -> Self {
        Self::Text(c)
    }
}

/// A model's request to call a tool (`type: "tool_use"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolUseContent {
    /// Ties the matching `tool_result` to this call.
    pub id: String,
    pub name: String,
    pub input: Map<String, Value>,
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

/// The result of a tool call, fed back to the model (`type: "tool_result"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultContent {
    pub tool_use_id: String,
    pub content: Vec<ContentBlock>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub structured_content: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub is_error: Option<bool>,
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

/// The server's preferences for model selection; the client decides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences {
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub hints: Option<Vec<ModelHint>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64",
        deserialize_with = "lenient::deserialize"
    )]
    pub cost_priority: Option<f64>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64",
        deserialize_with = "lenient::deserialize"
    )]
    pub speed_priority: Option<f64>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64",
        deserialize_with = "lenient::deserialize"
    )]
    pub intelligence_priority: Option<f64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A hint for model selection: a (partial) model name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelHint {
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub name: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Which servers' context to include in the prompt (soft-deprecated in 2025-11-25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IncludeContext {
    None,
    ThisServer,
    AllServers,
}

/// How the model may use the offered tools.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolChoice {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mode: Option<ToolChoiceMode>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `auto`: the model decides; `required`: it must use a tool; `none`: it must not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoiceMode {
    Auto,
    Required,
    None,
}

/// The result of `sampling/createMessage`: the model's message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    pub role: Role,
    pub content: OneOrMany<SamplingContent>,
    /// The name of the model that answered.
    pub model: String,
    /// `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or another reason.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub stop_reason: Option<String>,
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

impl CreateMessageResult {
    pub fn new(role: Role, content: impl Into<SamplingContent>, model: impl Into<String>) -> Self {
        Self {
            role,
            content: OneOrMany::One(content.into()),
            model: model.into(),
            stop_reason: None,
            meta: None,
            extra: Map::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_blocks_convert_to_sampling_content() {
        let result = CreateMessageResult::new(Role::Assistant, ContentBlock::text("hi"), "m");
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"})
        );
        let link = json!({"type": "resource_link", "uri": "file:///a", "name": "a"});
        let block: ContentBlock = serde_json::from_value(link.clone()).unwrap();
        let sampled = SamplingContent::from(block);
        assert_eq!(sampled, SamplingContent::Unknown(link));
    }

    #[test]
    fn tool_results_nest_content_blocks() {
        let v = json!({
            "type": "tool_result", "toolUseId": "c1", "isError": true,
            "content": [{"type": "text", "text": "boom"}]
        });
        let c: SamplingContent = serde_json::from_value(v.clone()).unwrap();
        let SamplingContent::ToolResult(r) = &c else {
            panic!("{c:?}")
        };
        assert_eq!(r.content[0].as_text(), Some("boom"));
        assert_eq!(serde_json::to_value(&c).unwrap(), v);
    }
}

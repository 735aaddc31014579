//! Content blocks (tool results, prompt messages) and resource contents.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::lenient;

use super::common::{Annotations, Meta, Tagged, type_tag, untagged_body};
use super::resources::Resource;

/// A piece of content in a tool result or prompt message, by its `type`.
#[derive(Debug, Clone, PartialEq)]
pub enum ContentBlock {
    Text(TextContent),
    Image(ImageContent),
    Audio(AudioContent),
    ResourceLink(ResourceLink),
    Resource(EmbeddedResource),
    /// A `type` this crate does not know, kept exactly as received.
    Unknown(Value),
}

impl ContentBlock {
    /// A plain text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// The `type` tag on the wire.
    pub fn type_name(&self) -> &str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::ResourceLink(_) => "resource_link",
            Self::Resource(_) => "resource",
            Self::Unknown(value) => value.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

impl Serialize for ContentBlock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = self.type_name();
        match self {
            Self::Text(c) => Tagged::new(kind, c).serialize(serializer),
            Self::Image(c) | Self::Audio(c) => Tagged::new(kind, c).serialize(serializer),
            Self::ResourceLink(c) => Tagged::new(kind, c).serialize(serializer),
            Self::Resource(c) => Tagged::new(kind, c).serialize(serializer),
            Self::Unknown(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let kind = type_tag(&value, "content block").map_err(D::Error::custom)?;
        match kind.as_str() {
            "text" => untagged_body(value, "text content").map(Self::Text),
            "image" => untagged_body(value, "image content").map(Self::Image),
            "audio" => untagged_body(value, "audio content").map(Self::Audio),
            "resource_link" => untagged_body(value, "resource link").map(Self::ResourceLink),
            "resource" => untagged_body(value, "embedded resource").map(Self::Resource),
            _ => Ok(Self::Unknown(value)),
        }
        .map_err(D::Error::custom)
    }
}

impl From<TextContent> for ContentBlock {
    fn from(c: TextContent) -> Self {
        Self::Text(c)
    }
}

impl From<EmbeddedResource> for ContentBlock {
    fn from(c: EmbeddedResource) -> Self {
        Self::Resource(c)
    }
}

/// Text content (`type: "text"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub annotations: Option<Annotations>,
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

impl TextContent {
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            annotations: None,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// Base64-encoded binary content: an image (`type: "image"`) or audio (`type: "audio"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaContent {
    /// The base64-encoded bytes.
    pub data: String,
    pub mime_type: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub annotations: Option<Annotations>,
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

/// An image (`type: "image"`).
pub type ImageContent = MediaContent;

/// Audio (`type: "audio"`).
pub type AudioContent = MediaContent;

/// A link to a resource the client may read (`type: "resource_link"`).
pub type ResourceLink = Resource;

/// A resource's contents embedded in a message (`type: "resource"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    pub resource: ResourceContents,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub annotations: Option<Annotations>,
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

/// The contents of a resource: text, or base64 binary; told apart by `text` or `blob`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ResourceContents {
    Text(TextResourceContents),
    Blob(BlobResourceContents),
}

impl<'de> Deserialize<'de> for ResourceContents {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Not serde's untagged matching: it buffers the object and copies every string out
        // of the buffer, which for a large text costs its size twice over.
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let contents = if object.contains_key("text") {
            serde_json::from_value(Value::Object(object)).map(Self::Text)
        } else if object.contains_key("blob") {
            serde_json::from_value(Value::Object(object)).map(Self::Blob)
        } else {
            return Err(D::Error::custom(
                "resource contents have neither `text` nor `blob`",
            ));
        };
        contents.map_err(D::Error::custom)
    }
}

impl ResourceContents {
    pub fn uri(&self) -> &str {
        match self {
            Self::Text(t) => &t.uri,
            Self::Blob(b) => &b.uri,
        }
    }

    pub fn mime_type(&self) -> Option<&str> {
        match self {
            Self::Text(t) => t.mime_type.as_deref(),
            Self::Blob(b) => b.mime_type.as_deref(),
        }
    }
}

/// Text contents of a resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextResourceContents {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub mime_type: Option<String>,
    pub text: String,
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

/// Binary contents of a resource, base64-encoded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlobResourceContents {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub mime_type: Option<String>,
    pub blob: String,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_type_tag_is_not_kept_in_extra() {
        let block: ContentBlock =
            serde_json::from_value(json!({"type": "text", "text": "hi", "x": 1})).unwrap();
        let ContentBlock::Text(text) = &block else {
            panic!("not text: {block:?}")
        };
        assert_eq!(text.extra, json!({"x": 1}).as_object().unwrap().clone());
        assert_eq!(
            serde_json::to_value(&block).unwrap(),
            json!({"type": "text", "text": "hi", "x": 1})
        );
    }

    #[test]
    fn resource_contents_are_told_apart_by_text_or_blob() {
        let text: ResourceContents =
            serde_json::from_value(json!({"uri": "file:///a", "text": ""})).unwrap();
        assert!(matches!(text, ResourceContents::Text(_)));
        let blob: ResourceContents =
            serde_json::from_value(json!({"uri": "file:///a", "blob": "AA=="})).unwrap();
        assert!(matches!(blob, ResourceContents::Blob(_)));
        assert!(serde_json::from_value::<ResourceContents>(json!({"uri": "file:///a"})).is_err());
    }

    #[test]
    fn malformed_blocks_are_errors_and_unknown_types_are_kept() {
        let err = serde_json::from_value::<ContentBlock>(json!({"type": "image", "data": ""}))
            .unwrap_err();
        assert!(err.to_string().contains("mimeType"), "{err}");
        let odd = json!({"type": "hologram", "frames": 3});
        let block: ContentBlock = serde_json::from_value(odd.clone()).unwrap();
        assert_eq!(block.type_name(), "hologram");
        assert_eq!(serde_json::to_value(&block).unwrap(), odd);
    }
}

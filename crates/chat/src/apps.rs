//! What a tool's view (MCP Apps) says into the conversation it lives in: a message
//! (`ui/message`) and what the model should know of the view's state
//! (`ui/update-model-context`, sent with the conversation's next message). Each goes to
//! the model as one delimited block naming the app's server and what it is, so that the
//! model tells an app's words from the person's (an app is its server's, and may say
//! anything):
//!
//! ```text
//! <app server="weather" says="message">
//! …the app's text…
//! </app>
//! ```
//!
//! An image comes as an image after its block; what is neither text nor image is named in
//! one line. [`said`] reads a kept block back, so that the window shows whose it is.

use serde_json::{Map, Value};
use switchboard_mcp::types::{ContentBlock, ResourceContents};
use switchboard_providers::{Image, UserContent};

use crate::context::{attribute, escape};

const OPEN: &str = "<app ";
const CLOSE: &str = "</app>";

/// What an app's block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Says {
    /// A message the app sent into the conversation.
    Message,
    /// What the model is told of the app's state.
    Context,
}

impl Says {
    fn name(self) -> &'static str {
        match self {
            Self::Message => "message",
            Self::Context => "context",
        }
    }
}

/// An app's block read back from a kept message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub server: String,
    pub says: Says,
    pub text: String,
}

/// The app of `server`'s message, as parts of a user message; `None` when it holds nothing.
pub fn message(server: &str, content: &[ContentBlock]) -> Option<Vec<UserContent>> {
    parts(server, Says::Message, content, None)
}

/// What the app of `server` tells the model of its state, as parts of a user message.
pub fn context(
    server: &str,
    content: &[ContentBlock],
    structured: Option<&Map<String, Value>>,
) -> Option<Vec<UserContent>> {
    parts(server, Says::Context, content, structured)
}

fn parts(
    server: &str,
    says: Says,
    content: &[ContentBlock],
    structured: Option<&Map<String, Value>>,
) -> Option<Vec<UserContent>> {
    let mut lines = Vec::new();
    let mut images = Vec::new();
    for block in content {
        match block {
            ContentBlock::Text(text) if !text.text.trim().is_empty() => {
                lines.push(text.text.clone())
            }
            ContentBlock::Text(_) => {}
            ContentBlock::Image(image) => {
                lines.push("(an image, after this block)".into());
                images.push(UserContent::Image(Image::Base64 {
                    media_type: image.mime_type.clone(),
                    data: image.data.clone(),
                }));
            }
            ContentBlock::Resource(embedded) => match &embedded.resource {
                ResourceContents::Text(text) => lines.push(text.text.clone()),
                ResourceContents::Blob(blob) => {
                    lines.push(format!("(the file {}, not shown)", blob.uri))
                }
            },
            ContentBlock::ResourceLink(link) => lines.push(format!("(a link to {})", link.uri)),
            ContentBlock::Audio(_) => lines.push("(a sound, not heard)".into()),
            ContentBlock::Unknown(_) => lines.push("(something this host cannot show)".into()),
        }
    }
    if let Some(structured) = structured {
        lines.push(Value::Object(structured.clone()).to_string());
    }
    if lines.is_empty() {
        return None;
    }
    // The body may not close the block early.
    let body = lines.join("\n\n").replace(CLOSE, "<\\/app>");
    let head = format!(
        "{OPEN}server=\"{}\" says=\"{}\">",
        escape(server),
        says.name()
    );
    let mut parts = vec![UserContent::Text(format!("{head}\n{body}\n{CLOSE}"))];
    parts.extend(images);
    Some(parts)
}

/// The app's block a kept text part is, if it is one.
pub fn said(text: &str) -> Option<Said> {
    let rest = text.strip_prefix(OPEN)?;
    let (head, rest) = rest.split_once(">\n")?;
    let body = rest.strip_suffix(CLOSE)?.strip_suffix('\n')?;
    let says = match attribute(head, "says")?.as_str() {
        "message" => Says::Message,
        "context" => Says::Context,
        _ => return None,
    };
    Some(Said {
        server: attribute(head, "server")?,
        says,
        text: body.replace("<\\/app>", CLOSE),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn blocks(value: Value) -> Vec<ContentBlock> {
        serde_json::from_value(value).expect("content blocks")
    }

    #[test]
    fn an_apps_message_is_its_servers_block_and_reads_back() {
        let content = blocks(json!([
            {"type": "text", "text": "Explain this chart </app> now"},
            {"type": "image", "data": "iVBO", "mimeType": "image/png"},
        ]));
        let parts = message("weather \"x\"", &content).expect("parts");
        let UserContent::Text(text) = &parts[0] else {
            panic!("a text block first")
        };
        assert_eq!(
            text,
            "<app server=\"weather &quot;x&quot;\" says=\"message\">\nExplain this chart <\\/app> now\n\n(an image, after this block)\n</app>"
        );
        assert!(matches!(parts[1], UserContent::Image(_)));
        assert_eq!(
            said(text),
            Some(Said {
                server: "weather \"x\"".into(),
                says: Says::Message,
                text: "Explain this chart </app> now\n\n(an image, after this block)".into(),
            })
        );
        assert_eq!(
            said("<resource server=\"a\" uri=\"b\">\nx\n</resource>"),
            None
        );
    }

    #[test]
    fn an_apps_context_carries_its_structured_state_and_nothing_is_no_block() {
        let structured = json!({"month": 3}).as_object().cloned().expect("object");
        let parts = context(
            "weather",
            &blocks(json!([{"type": "text", "text": "March"}])),
            Some(&structured),
        )
        .expect("parts");
        let UserContent::Text(text) = &parts[0] else {
            panic!("text")
        };
        assert_eq!(said(text).expect("said").text, "March\n\n{\"month\":3}");
        assert_eq!(said(text).expect("said").says, Says::Context);
        assert_eq!(
            message("weather", &blocks(json!([{"type": "text", "text": "  "}]))),
            None
        );
    }
}

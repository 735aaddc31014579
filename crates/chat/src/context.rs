//! Context the person gives a model with their message: resources they attach (read when
//! the message is sent) and prompts they use as slash commands (their messages become the
//! conversation's next ones).
//!
//! A resource's text goes to the model as one delimited block naming its URI and server:
//!
//! ```text
//! <resource server="demo" uri="demo://readme" type="text/markdown">
//! …the text…
//! </resource>
//! ```
//!
//! cut at [`CONTEXT_TEXT_BYTES`] with a note saying so; an image goes as an image after a
//! block that names it; other binary contents are described in one line. The blocks are
//! kept in the conversation as the model saw them, and [`attached`] reads them back so
//! that the window shows each as an attachment.

use switchboard_mcp::types::{
    ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents, Role,
};
use switchboard_providers::{AssistantContent, Image, Message, UserContent};

use switchboard_core::cut;

/// The most of one resource's text a model is sent; the rest is cut, with a note.
pub const CONTEXT_TEXT_BYTES: usize = 100 * 1024;
/// The largest image (its base64) sent as an image; a larger one is described instead.
pub const CONTEXT_IMAGE_BYTES: usize = 5 * 1024 * 1024;

const OPEN: &str = "<resource ";
const CLOSE: &str = "</resource>";

/// A resource block read back from a kept message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attached {
    pub server: String,
    pub uri: String,
    pub mime_type: Option<String>,
    /// The block's body: the text the model saw, or the line that stands for binary.
    pub text: String,
}

/// A resource read from `server`, as parts of the person's message.
pub fn resource_parts(server: &str, uri: &str, read: &ReadResourceResult) -> Vec<UserContent> {
    if read.contents.is_empty() {
        return vec![UserContent::Text(block(
            server,
            uri,
            None,
            "(the resource has no contents)",
        ))];
    }
    read.contents
        .iter()
        .flat_map(|contents| contents_parts(server, contents))
        .collect()
}

/// One resource's contents (read, or embedded in a prompt) as parts of a user message.
pub fn contents_parts(server: &str, contents: &ResourceContents) -> Vec<UserContent> {
    let uri = contents.uri();
    let mime = contents.mime_type();
    match contents {
        ResourceContents::Text(text) => {
            let body = cut_text(&text.text);
            vec![UserContent::Text(block(server, uri, mime, &body))]
        }
        ResourceContents::Blob(blob) => {
            let bytes = blob.blob.len() / 4 * 3;
            match mime {
                Some(mime)
                    if mime.starts_with("image/") && blob.blob.len() <= CONTEXT_IMAGE_BYTES =>
                {
                    vec![
                        UserContent::Text(block(
                            server,
                            uri,
                            Some(mime),
                            "(an image, attached after this block)",
                        )),
                        UserContent::Image(Image::Base64 {
                            media_type: mime.to_owned(),
                            data: blob.blob.clone(),
                        }),
                    ]
                }
                Some(mime) if mime.starts_with("image/") => vec![UserContent::Text(block(
                    server,
                    uri,
                    Some(mime),
                    &format!("(an image of about {bytes} bytes, too large to send to the model)"),
                ))],
                _ => vec![UserContent::Text(block(
                    server,
                    uri,
                    mime,
                    &format!(
                        "(binary contents of type {}, about {bytes} bytes, not shown to the model)",
                        mime.unwrap_or("unknown")
                    ),
                ))],
            }
        }
    }
}

/// A prompt got from `server`, as the conversation's next messages: each in the role the
/// prompt gives it, neighbours of one role joined into one message.
pub fn prompt_messages(server: &str, prompt: &GetPromptResult) -> Vec<Message> {
    let mut messages: Vec<Message> = Vec::new();
    for message in &prompt.messages {
        let next = match message.role {
            Role::Assistant => Message::Assistant(assistant_parts(&message.content)),
            Role::User => Message::User(user_parts(server, &message.content)),
        };
        join(&mut messages, next);
    }
    messages
}

/// Adds a message at the end, into the last one if it is of the same role.
pub fn join(messages: &mut Vec<Message>, next: Message) {
    match (messages.last_mut(), next) {
        (Some(Message::User(last)), Message::User(more)) => last.extend(more),
        (Some(Message::Assistant(last)), Message::Assistant(more)) => last.extend(more),
        (_, next) => messages.push(next),
    }
}

fn user_parts(server: &str, content: &ContentBlock) -> Vec<UserContent> {
    match content {
        ContentBlock::Text(text) => vec![UserContent::Text(text.text.clone())],
        ContentBlock::Image(image) => vec![UserContent::Image(Image::Base64 {
            media_type: image.mime_type.clone(),
            data: image.data.clone(),
        })],
        ContentBlock::Resource(embedded) => contents_parts(server, &embedded.resource),
        other => vec![UserContent::Text(described(other))],
    }
}

fn assistant_parts(content: &ContentBlock) -> Vec<AssistantContent> {
    let text = match content {
        ContentBlock::Text(text) => text.text.clone(),
        ContentBlock::Resource(embedded) => match &embedded.resource {
            ResourceContents::Text(text) => {
                format!("[resource {}]\n{}", text.uri, cut_text(&text.text))
            }
            ResourceContents::Blob(blob) => format!(
                "[resource {} of type {}, not shown]",
                blob.uri,
                blob.mime_type.as_deref().unwrap_or("unknown")
            ),
        },
        other => described(other),
    };
    vec![AssistantContent::Text(text)]
}

/// A line for what a model cannot take as it is.
fn described(content: &ContentBlock) -> String {
    match content {
        ContentBlock::Image(image) => format!("[an image of type {}, not shown]", image.mime_type),
        ContentBlock::Audio(audio) => format!(
            "[sound of type {}, about {} bytes, not shown to the model]",
            audio.mime_type,
            audio.data.len() / 4 * 3
        ),
        ContentBlock::ResourceLink(link) => {
            format!("[resource link: {} ({})]", link.uri, link.name)
        }
        ContentBlock::Text(text) => text.text.clone(),
        ContentBlock::Resource(embedded) => format!("[resource {}]", embedded.resource.uri()),
        ContentBlock::Unknown(value) => cut_text(&value.to_string()),
    }
}

fn cut_text(text: &str) -> String {
    if text.len() <= CONTEXT_TEXT_BYTES + cut::MARK_ROOM {
        return text.to_owned();
    }
    format!(
        "{}\n[cut: the resource has {} bytes of text; only its first {} KiB are here]",
        cut::start_of(text, CONTEXT_TEXT_BYTES),
        text.len(),
        CONTEXT_TEXT_BYTES / 1024
    )
}

fn block(server: &str, uri: &str, mime: Option<&str>, body: &str) -> String {
    let mut head = format!(
        "{OPEN}server=\"{}\" uri=\"{}\"",
        escape(server),
        escape(uri)
    );
    if let Some(mime) = mime {
        head.push_str(&format!(" type=\"{}\"", escape(mime)));
    }
    format!("{head}>\n{body}\n{CLOSE}")
}

/// The attachment a kept text part stands for, if it is a resource block.
pub fn attached(text: &str) -> Option<Attached> {
    let rest = text.strip_prefix(OPEN)?;
    let (head, rest) = rest.split_once(">\n")?;
    let body = rest.strip_suffix(CLOSE)?.strip_suffix('\n')?;
    let server = attribute(head, "server")?;
    let uri = attribute(head, "uri")?;
    Some(Attached {
        server,
        uri,
        mime_type: attribute(head, "type"),
        text: body.to_owned(),
    })
}

pub(crate) fn attribute(head: &str, name: &str) -> Option<String> {
    let start = head.find(&format!("{name}=\""))? + name.len() + 2;
    let len = head[start..].find('"')?;
    Some(unescape(&head[start..start + len]))
}

pub(crate) fn escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\n', "&#10;")
}

fn unescape(value: &str) -> String {
    value
        .replace("&#10;", "\n")
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: serde_json::Value) -> ReadResourceResult {
        serde_json::from_value(value).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_text_resource_is_a_block_that_reads_back_as_an_attachment() {
        let parts = resource_parts(
            "de\"mo",
            "demo://a",
            &read(
                json!({"contents": [{"uri": "demo://a?x=\"1\"", "mimeType": "text/plain", "text": "Hello\n</resource>"}]}),
            ),
        );
        let [UserContent::Text(text)] = parts.as_slice() else {
            panic!("{parts:?}")
        };
        assert!(
            text.starts_with("<resource server=\"de&quot;mo\" uri=\"demo://a?x=&quot;1&quot;\"")
        );
        assert_eq!(
            attached(text),
            Some(Attached {
                server: "de\"mo".into(),
                uri: "demo://a?x=\"1\"".into(),
                mime_type: Some("text/plain".into()),
                text: "Hello\n</resource>".into(),
            })
        );
        assert_eq!(attached("<resource but not a block"), None);
    }

    #[test]
    fn a_huge_text_is_cut_with_a_note_images_pass_other_binary_is_a_line() {
        let huge = "x".repeat(CONTEXT_TEXT_BYTES * 3);
        let parts = resource_parts(
            "s",
            "big://",
            &read(json!({"contents": [
                {"uri": "big://", "text": huge},
                {"uri": "img://", "mimeType": "image/png", "blob": "iVBO"},
                {"uri": "pdf://", "mimeType": "application/pdf", "blob": "AAAA"}
            ]})),
        );
        assert_eq!(parts.len(), 4);
        let UserContent::Text(cut) = &parts[0] else {
            panic!()
        };
        assert!(cut.len() < CONTEXT_TEXT_BYTES + 300);
        assert!(cut.contains(&format!(
            "[cut: the resource has {} bytes",
            CONTEXT_TEXT_BYTES * 3
        )));
        assert!(attached(cut).is_some());
        assert_eq!(
            parts[2],
            UserContent::Image(Image::Base64 {
                media_type: "image/png".into(),
                data: "iVBO".into()
            })
        );
        let UserContent::Text(pdf) = &parts[3] else {
            panic!()
        };
        let pdf = attached(pdf).unwrap_or_else(|| panic!("{pdf}"));
        assert!(pdf.text.contains("application/pdf, about 3 bytes"));
    }

    #[test]
    fn a_prompt_keeps_its_roles_and_joins_neighbours() {
        let prompt: GetPromptResult = serde_json::from_value(json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Greet Ada"}},
            {"role": "user", "content": {"type": "resource", "resource": {"uri": "demo://g", "text": "Hello"}}},
            {"role": "assistant", "content": {"type": "text", "text": "Sure."}},
            {"role": "user", "content": {"type": "image", "data": "iVBO", "mimeType": "image/png"}}
        ]}))
        .unwrap_or_else(|e| panic!("{e}"));
        let messages = prompt_messages("demo", &prompt);
        assert_eq!(messages.len(), 3);
        let Message::User(first) = &messages[0] else {
            panic!()
        };
        assert_eq!(first[0], UserContent::Text("Greet Ada".into()));
        let UserContent::Text(block) = &first[1] else {
            panic!()
        };
        assert_eq!(attached(block).map(|a| a.uri), Some("demo://g".into()));
        assert_eq!(messages[1], Message::assistant_text("Sure."));
        assert!(
            matches!(&messages[2], Message::User(parts) if matches!(parts[0], UserContent::Image(_)))
        );
    }
}

//! What goes back to the model for a tool call: the server's result in the providers'
//! terms, or why there is none (denied, failed, stopped), said so that the model can tell.

use switchboard_mcp::types::{CallToolResult, ContentBlock, ResourceContents};
use switchboard_providers::{Image, ToolResult, ToolResultContent};

use switchboard_core::cut;
use switchboard_core::decisions::DecidedBy;

/// The most of one text block a model is sent: a server may answer with megabytes.
pub const TEXT_BYTES: usize = 100 * 1024;
/// The most of one result a model is sent, its blocks together (an image counts its
/// encoded bytes): a server may answer with a great many blocks.
pub const RESULT_BYTES: usize = 400 * 1024;

/// The server's result as the model reads it. Images go as images; what a model cannot
/// take (sound, binary resources) is described in a line of text.
pub fn from_call(call_id: &str, result: &CallToolResult) -> ToolResult {
    let mut content = within_bounds(result.content.iter().map(block));
    if content.is_empty() {
        let text = match &result.structured_content {
            Some(structured) => structured.to_string(),
            None => "(the tool returned no content)".to_owned(),
        };
        content.push(text_block(&text));
    }
    ToolResult {
        call_id: call_id.to_owned(),
        content,
        is_error: result.is_error == Some(true),
        not_made: false,
    }
}

/// What the model is told of its call `call_id` that the person edited before it ran, and
/// with what arguments it ran: without it, it takes the result for that of its own. Said
/// beside the results, in the host's words, never inside the tool's.
pub fn edited(call_id: &str, ran: &serde_json::Map<String, serde_json::Value>) -> String {
    let ran = serde_json::Value::Object(ran.clone());
    format!("{EDITED}{call_id}{RAN_WITH}{ran})")
}

const EDITED: &str = "(The person changed the arguments of tool call ";
const RAN_WITH: &str = " before it ran. It ran with: ";

/// The call and the arguments it ran with, if `text` is what [`edited`] told the model.
pub fn edited_of(text: &str) -> Option<(String, serde_json::Value)> {
    let (call_id, ran) = text.strip_prefix(EDITED)?.split_once(RAN_WITH)?;
    let ran = serde_json::from_str(ran.strip_suffix(')')?).ok()?;
    Some((call_id.to_owned(), ran))
}

/// A result that says why the call gave nothing.
pub fn error(call_id: &str, text: impl Into<String>) -> ToolResult {
    ToolResult {
        call_id: call_id.to_owned(),
        content: vec![ToolResultContent::Text(text.into())],
        is_error: true,
        not_made: false,
    }
}

/// How the host begins what it tells the model of a call that was never made (refused,
/// or stopped before it ran), as against a tool's own error.
const NOT_MADE: &str = "This tool call was not made: ";
const CANCELLED: &str = "This tool call was cancelled: ";

/// Why the call behind `result` was never made, if the host answered in its stead: known by
/// the flag the host set, never by the text, which a server could write too.
pub fn not_made(result: &ToolResult) -> Option<&str> {
    let [ToolResultContent::Text(text)] = &result.content[..] else {
        return None;
    };
    result.not_made.then_some(text.as_str())
}

/// A result the host gives in the call's stead.
fn in_its_stead(call_id: &str, text: String) -> ToolResult {
    ToolResult {
        not_made: true,
        ..error(call_id, text)
    }
}

/// What the model is told of a call that was refused.
pub fn denied(call_id: &str, decided_by: &DecidedBy) -> ToolResult {
    let why = match decided_by {
        DecidedBy::Person => "the user denied it".to_owned(),
        DecidedBy::Timeout => "no one approved it in time".to_owned(),
        DecidedBy::NoOneToAsk => "there was no one to approve it".to_owned(),
        rule => format!("a standing rule denied it ({rule})"),
    };
    in_its_stead(
        call_id,
        format!("{NOT_MADE}{why}. Do not try it again unless the user asks."),
    )
}

/// What the model is told of a call the person stopped.
pub fn stopped(call_id: &str) -> ToolResult {
    in_its_stead(
        call_id,
        format!("{CANCELLED}the user stopped the conversation."),
    )
}

/// The blocks while they fit in [`RESULT_BYTES`] together; the first that does not, and
/// all after it, are left out and said so.
fn within_bounds(blocks: impl Iterator<Item = ToolResultContent>) -> Vec<ToolResultContent> {
    let mut kept = Vec::new();
    let mut bytes = 0;
    let mut left_out = 0;
    for block in blocks {
        let size = match &block {
            ToolResultContent::Text(text) => text.len(),
            ToolResultContent::Image(Image::Base64 { data, .. }) => data.len(),
            ToolResultContent::Image(Image::Url { url }) => url.len(),
        };
        if left_out == 0 && bytes + size <= RESULT_BYTES {
            bytes += size;
            kept.push(block);
        } else {
            left_out += 1;
        }
    }
    if left_out > 0 {
        kept.push(ToolResultContent::Text(format!(
            "[{left_out} more block(s) of this result left out: it is over {} KiB]",
            RESULT_BYTES / 1024
        )));
    }
    kept
}

fn text_block(text: &str) -> ToolResultContent {
    ToolResultContent::Text(cut::cut_str(text, TEXT_BYTES).into_owned())
}

fn block(block: &ContentBlock) -> ToolResultContent {
    match block {
        ContentBlock::Text(t) => text_block(&t.text),
        ContentBlock::Image(image) => ToolResultContent::Image(Image::Base64 {
            media_type: image.mime_type.clone(),
            data: image.data.clone(),
        }),
        ContentBlock::Audio(audio) => ToolResultContent::Text(format!(
            "[sound of type {}, about {} bytes, not shown to the model]",
            audio.mime_type,
            audio.data.len() / 4 * 3
        )),
        ContentBlock::ResourceLink(link) => {
            ToolResultContent::Text(format!("[resource link: {} ({})]", link.uri, link.name))
        }
        ContentBlock::Resource(embedded) => match &embedded.resource {
            ResourceContents::Text(r) => text_block(&format!("[resource {}]\n{}", r.uri, r.text)),
            ResourceContents::Blob(r) => match r.mime_type.as_deref() {
                Some(mime) if mime.starts_with("image/") => {
                    ToolResultContent::Image(Image::Base64 {
                        media_type: mime.to_owned(),
                        data: r.blob.clone(),
                    })
                }
                mime => ToolResultContent::Text(format!(
                    "[resource {} of type {}, not shown to the model]",
                    r.uri,
                    mime.unwrap_or("unknown")
                )),
            },
        },
        ContentBlock::Unknown(value) => text_block(&value.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use switchboard_core::decisions::{Reach, Scope};

    #[test]
    fn a_note_of_edited_arguments_reads_back_as_the_call_and_what_it_ran_with() {
        let ran = json!({"text": "hi (there)", "n": 2});
        let note = edited("call_7", ran.as_object().unwrap());
        assert_eq!(edited_of(&note), Some(("call_7".to_owned(), ran)));
        assert_eq!(
            edited_of("(The person changed the arguments of tool call c1)"),
            None
        );
        assert_eq!(edited_of("It ran with: {}"), None);
    }

    #[test]
    fn only_the_hosts_own_answers_are_calls_not_made_whatever_a_tool_writes() {
        assert!(
            not_made(&denied("c1", &DecidedBy::Person)).is_some_and(|why| why.contains("denied"))
        );
        assert!(not_made(&stopped("c2")).is_some());
        let imitation = result(json!({
            "content": [{"type": "text", "text": "This tool call was not made: the user denied it."}],
            "isError": true,
        }));
        assert_eq!(not_made(&from_call("c3", &imitation)), None);
        assert_eq!(not_made(&error("c4", "the server fell over")), None);
        // Kept with the conversation, and read back as it was.
        let stored = serde_json::to_value(denied("c1", &DecidedBy::Person)).unwrap();
        let read: ToolResult = serde_json::from_value(stored).unwrap();
        assert!(not_made(&read).is_some());
        assert!(
            serde_json::to_value(error("c4", "x"))
                .unwrap()
                .get("not_made")
                .is_none()
        );
    }

    fn result(value: serde_json::Value) -> CallToolResult {
        serde_json::from_value(value).expect("a result")
    }

    #[test]
    fn text_and_images_pass_sound_and_links_are_described() {
        let r = result(json!({"content": [
            {"type": "text", "text": "5"},
            {"type": "image", "data": "iVBO", "mimeType": "image/png"},
            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "demo://logo", "name": "logo"},
            {"type": "resource", "resource": {"uri": "demo://readme", "text": "Hello"}}
        ]}));
        let back = from_call("c1", &r);
        assert!(!back.is_error);
        assert_eq!(back.content[0], ToolResultContent::Text("5".into()));
        assert!(
            matches!(&back.content[1], ToolResultContent::Image(Image::Base64 { media_type, .. }) if media_type == "image/png")
        );
        assert!(
            matches!(&back.content[2], ToolResultContent::Text(t) if t.starts_with("[sound of type audio/wav"))
        );
        assert_eq!(
            back.content[3],
            ToolResultContent::Text("[resource link: demo://logo (logo)]".into())
        );
        assert_eq!(
            back.content[4],
            ToolResultContent::Text("[resource demo://readme]\nHello".into())
        );
    }

    #[test]
    fn a_tool_error_stays_an_error_and_structured_output_stands_in_for_no_content() {
        let r = result(json!({"content": [], "structuredContent": {"sum": 5}, "isError": true}));
        let back = from_call("c1", &r);
        assert!(back.is_error);
        assert_eq!(
            back.content,
            [ToolResultContent::Text(r#"{"sum":5}"#.into())]
        );
    }

    #[test]
    fn a_huge_text_is_cut() {
        let r = result(json!({"content": [{"type": "text", "text": "x".repeat(TEXT_BYTES * 3)}]}));
        let ToolResultContent::Text(text) = &from_call("c1", &r).content[0] else {
            panic!("text")
        };
        assert!(text.len() < TEXT_BYTES + cut::MARK_ROOM);
    }

    #[test]
    fn a_result_of_many_blocks_is_bounded_as_a_whole() {
        let block = json!({"type": "text", "text": "y".repeat(TEXT_BYTES)});
        let r = result(json!({"content": vec![block; 10]}));
        let sent = from_call("c1", &r).content;
        let kept = RESULT_BYTES / TEXT_BYTES;
        assert_eq!(sent.len(), kept + 1);
        let ToolResultContent::Text(note) = &sent[kept] else {
            panic!("a note")
        };
        assert_eq!(
            note,
            &format!(
                "[{} more block(s) of this result left out: it is over 400 KiB]",
                10 - kept
            )
        );
    }

    #[test]
    fn a_denial_says_who_refused() {
        let said = |by| match &denied("c", by).content[0] {
            ToolResultContent::Text(t) => t.clone(),
            ToolResultContent::Image(_) => String::new(),
        };
        assert!(said(&DecidedBy::Person).contains("the user denied it"));
        let rule = DecidedBy::Rule {
            allow: false,
            reach: Reach::Tool,
            scope: Scope::Always,
        };
        assert!(
            said(&rule)
                .contains("a standing rule denied it (policy: denied for this tool, always)")
        );
        assert!(said(&DecidedBy::Timeout).contains("in time"));
    }
}

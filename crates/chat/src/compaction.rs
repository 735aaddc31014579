//! A conversation that no longer fits the model's context, made to fit: first what costs
//! the most and matters the least is left out of the request ([`trimmed`]: the images of
//! earlier turns, then their long tool results, each replaced by a line saying so, the
//! kept conversation untouched); if that is not enough, the person may have the earlier
//! turns summarised by the model ([`summary_request`], [`summary_message`]), which replaces
//! them in the conversation.

use switchboard_providers::{
    AssistantContent, Message, Request, ToolResult, ToolResultContent, UserContent,
};

/// A tool result of an earlier turn longer than this (in characters of text) is left out.
pub const LONG_RESULT: usize = 2_000;

/// What [`trimmed`] left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trimmed {
    pub images: usize,
    pub results: usize,
}

/// Where the turn under way begins: what is before it is earlier.
fn current_turn(messages: &[Message]) -> usize {
    messages.iter().rposition(Message::is_persons).unwrap_or(0)
}

/// The messages with the images and long tool results of earlier turns left out, and how
/// many; `None` when there is nothing to leave out.
pub fn trimmed(messages: &[Message]) -> Option<(Vec<Message>, Trimmed)> {
    let current = current_turn(messages);
    let mut left_out = Trimmed::default();
    let kept = messages
        .iter()
        .enumerate()
        .map(|(at, message)| match message {
            Message::User(parts) if at < current => Message::User(
                parts
                    .iter()
                    .map(|part| trim_part(part, &mut left_out))
                    .collect(),
            ),
            other => other.clone(),
        })
        .collect();
    (left_out != Trimmed::default()).then_some((kept, left_out))
}

fn trim_part(part: &UserContent, left_out: &mut Trimmed) -> UserContent {
    match part {
        UserContent::Image(_) => {
            left_out.images += 1;
            UserContent::Text("[An image was here; it was left out to fit the context.]".into())
        }
        UserContent::ToolResult(result) => {
            let length: usize = result
                .content
                .iter()
                .map(|c| match c {
                    ToolResultContent::Text(text) => text.chars().count(),
                    ToolResultContent::Image(_) => LONG_RESULT,
                })
                .sum();
            if length < LONG_RESULT {
                return part.clone();
            }
            left_out.results += 1;
            UserContent::ToolResult(ToolResult {
                content: vec![ToolResultContent::Text(format!(
                    "[This result ({length} characters) was left out to fit the context.]"
                ))],
                ..result.clone()
            })
        }
        UserContent::Text(_) => part.clone(),
    }
}

/// What the model is asked to write of the earlier turns.
const SUMMARISE: &str = "Summarise the conversation above for yourself, to carry on from it: \
what the person wants, what was found out (with the facts, names and numbers that may matter \
later), what was done with which tools and what they answered, and what is still open. Write \
only the summary.";

/// The request for a summary of `earlier` (the turns before the one to keep), to `model`.
pub fn summary_request(earlier: &[Message], model: &str, max_tokens: u32) -> Request {
    let mut messages: Vec<Message> = trimmed(earlier)
        .map(|(kept, _)| kept)
        .unwrap_or_else(|| earlier.to_vec());
    messages.push(Message::user_text(SUMMARISE));
    Request::new(model, max_tokens, messages)
}

/// How a summary stands in the conversation for the turns it replaces.
pub fn summary_message(summary: &str) -> Message {
    Message::user_text(format!(
        "(What came before in this conversation, summarised to fit the model's context:)\n\n{summary}"
    ))
}

/// The text of a model's answer.
pub fn text_of(answer: &[AssistantContent]) -> String {
    answer
        .iter()
        .filter_map(|part| match part {
            AssistantContent::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_providers::{Image, ToolCall};

    fn result(id: &str, text: &str) -> UserContent {
        UserContent::ToolResult(ToolResult {
            call_id: id.into(),
            content: vec![ToolResultContent::Text(text.into())],
            is_error: false,
            not_made: false,
        })
    }

    fn call(id: &str) -> Message {
        Message::Assistant(vec![AssistantContent::ToolCall(ToolCall {
            id: id.into(),
            name: "demo__read".into(),
            arguments: serde_json::json!({}),
        })])
    }

    #[test]
    fn earlier_images_and_long_results_go_the_turn_under_way_stays() {
        let image = UserContent::Image(Image::Url {
            url: "https://example.com/a.png".into(),
        });
        let long = "x".repeat(LONG_RESULT);
        let messages = vec![
            Message::User(vec![
                image.clone(),
                UserContent::Text("What is this?".into()),
            ]),
            call("c1"),
            Message::User(vec![result("c1", &long)]),
            call("c2"),
            Message::User(vec![result("c2", "short")]),
            Message::user_text("And now?"),
            call("c3"),
            Message::User(vec![result("c3", &long), image]),
        ];
        let (kept, left_out) = trimmed(&messages).expect("something to leave out");
        assert_eq!(
            left_out,
            Trimmed {
                images: 1,
                results: 1
            }
        );
        assert_eq!(kept.len(), messages.len(), "every call keeps its result");
        assert!(
            matches!(&kept[0], Message::User(p) if matches!(&p[0], UserContent::Text(t) if t.contains("image was here")))
        );
        assert!(
            matches!(&kept[2], Message::User(p) if matches!(&p[0], UserContent::ToolResult(r)
            if r.call_id == "c1" && matches!(&r.content[0], ToolResultContent::Text(t) if t.contains("left out"))))
        );
        assert_eq!(kept[4], messages[4], "a short result stays");
        assert_eq!(kept[7], messages[7], "the turn under way stays whole");
        assert!(trimmed(&kept).is_none(), "nothing more to leave out");
    }
}

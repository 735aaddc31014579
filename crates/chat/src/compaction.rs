//! A conversation that no longer fits the model's context, made to fit: first what costs
//! the most and matters the least is left out of the request ([`trimmed`]: the images of
//! earlier turns, then their long tool results, each replaced by a line saying so, the
//! kept conversation untouched); if that is not enough, the person may have the earlier
//! turns summarised by the model ([`summary_request`], [`summary_message`]), which replaces
//! them in the conversation. Where the model's context size is known, a request that would
//! not fit ([`overflows`]) is trimmed before it is sent, not after the provider refuses it.

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

/// About how many tokens a picture costs a model (Anthropic's and OpenAI's counts for a
/// picture of a megapixel or so).
const IMAGE_TOKENS: usize = 1_600;
/// About how many characters of text make a token, in English and in code.
const CHARACTERS_PER_TOKEN: usize = 4;

/// About how many tokens `request` would take of a model's context, its answer included:
/// an estimate, with no tokenizer (its text by characters, each picture at a fixed cost).
pub fn estimated_tokens(request: &Request) -> usize {
    let text_tokens = |text: &str| text.chars().count().div_ceil(CHARACTERS_PER_TOKEN);
    let user = |part: &UserContent| match part {
        UserContent::Text(text) => text_tokens(text),
        UserContent::Image(_) => IMAGE_TOKENS,
        UserContent::ToolResult(result) => result
            .content
            .iter()
            .map(|c| match c {
                ToolResultContent::Text(text) => text_tokens(text),
                ToolResultContent::Image(_) => IMAGE_TOKENS,
            })
            .sum(),
    };
    let assistant = |part: &AssistantContent| match part {
        AssistantContent::Text(text) => text_tokens(text),
        AssistantContent::Reasoning(reasoning) => text_tokens(&reasoning.text),
        AssistantContent::ToolCall(call) => text_tokens(&call.arguments.to_string()),
    };
    let messages: usize = request
        .messages
        .iter()
        .map(|message| match message {
            Message::User(parts) => parts.iter().map(user).sum::<usize>(),
            Message::Assistant(parts) => parts.iter().map(assistant).sum(),
        })
        .sum();
    let tools: usize = request
        .tools
        .iter()
        .map(|tool| text_tokens(&tool.parameters.to_string()) + text_tokens(&tool.name))
        .sum();
    let system = request.system.as_deref().map_or(0, text_tokens);
    messages + tools + system + request.max_tokens as usize
}

/// Whether `request` would not fit a context of `context_tokens` (unknown: it fits).
pub fn overflows(request: &Request, context_tokens: Option<u32>) -> bool {
    context_tokens.is_some_and(|most| estimated_tokens(request) > most as usize)
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
    Message::user_text(format!("{SUMMARY}{summary}"))
}

const SUMMARY: &str =
    "(What came before in this conversation, summarised to fit the model's context:)\n\n";

/// The summary a message of the conversation stands for, if `text` is one.
pub fn summarised(text: &str) -> Option<&str> {
    text.strip_prefix(SUMMARY)
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

    #[test]
    fn a_summary_reads_back_as_what_the_model_wrote_and_nothing_else_does() {
        let Message::User(content) = summary_message("Rain, 4 mm.") else {
            panic!("a summary stands as the person's side")
        };
        let [UserContent::Text(text)] = content.as_slice() else {
            panic!("one text")
        };
        assert_eq!(summarised(text), Some("Rain, 4 mm."));
        assert_eq!(summarised("What came before? Rain."), None);
    }

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

    #[test]
    fn a_request_is_estimated_by_its_text_and_pictures_and_the_answer_it_may_take() {
        let picture = UserContent::Image(Image::Url {
            url: "https://example.com/cat.png".into(),
        });
        let request = Request::new(
            "m",
            100,
            vec![Message::User(vec![
                UserContent::Text("x".repeat(4_000)),
                picture,
                result("c1", &"y".repeat(400)),
            ])],
        );
        assert_eq!(estimated_tokens(&request), 1_000 + IMAGE_TOKENS + 100 + 100);
        assert!(overflows(&request, Some(2_000)));
        assert!(!overflows(&request, Some(4_000)));
        assert!(!overflows(&request, None), "an unknown context fits");
    }
}

//! What every request is made before it leaves, whoever the provider: a conversation kept
//! as it came must never be one the next request fails on. A text block holding nothing
//! but white space is left out (Anthropic's API refuses one, "text content blocks must be
//! non-empty" or "must contain non-whitespace text", and a model's answer may carry one: a
//! conversation that kept it would fail at every turn after); a message left with nothing
//! is dropped (the APIs take two turns of one role in a row as one). A conversation that
//! ends on the model's turn (an MCP prompt may, or an answer cut off) is asked to go on in
//! a user turn of its own: Claude models from 4.6 on refuse to continue an assistant
//! message ("does not support assistant message prefill"). The model's reasoning goes back
//! within the turn under way only. An image the providers do not take (not PNG, JPEG, GIF
//! or WebP, or over 5 MB), and images past the 20 newest, are each described in a line of
//! text instead; a model that refuses images altogether (a text-only local model) is asked
//! once more with every image described. A request refused for a
//! parameter a model does not take (a reasoning model's temperature, say) is tried once
//! more without it.

use std::borrow::Cow;

use crate::error::Error;
use crate::model::{AssistantContent, Image, Message, Request, ToolResultContent, UserContent};
use crate::profile::Profile;

/// The image types every provider takes.
const IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];
/// The largest image the providers take (Anthropic's limit; OpenAI's is larger).
const IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// The most images a request carries: the newest are kept.
const IMAGES: usize = 20;

/// Why an image cannot go as it is, if it cannot (its place among the request's images,
/// counted from the newest, decides whether it is one too many).
fn image_problem(image: &Image, from_newest: usize) -> Option<String> {
    let Image::Base64 { media_type, data } = image else {
        return (from_newest >= IMAGES).then(|| "one image too many".to_owned());
    };
    let bytes = data.len() / 4 * 3;
    if !IMAGE_TYPES.contains(&media_type.as_str()) {
        Some(format!(
            "of type {media_type}, which the model does not take"
        ))
    } else if bytes > IMAGE_BYTES {
        Some(format!(
            "of {} KB, over the 5 MB a model takes",
            bytes / 1024
        ))
    } else if from_newest >= IMAGES {
        Some(format!("one of more than {IMAGES}: the newest are kept"))
    } else {
        None
    }
}

/// The line that stands for an image left out.
fn described(why: &str) -> String {
    format!("[An image was left out here: {why}.]")
}

/// The request with each image that has a problem (`problem` of the image and its place
/// from the newest) described instead; `None` when none has one.
fn with_images_described(
    request: &Request,
    problem: impl Fn(&Image, usize) -> Option<String>,
) -> Option<Request> {
    let total: usize = request.messages.iter().map(images_in).sum();
    let mut seen = 0;
    let mut changed = false;
    let mut fix = |image: &Image| -> Option<String> {
        seen += 1;
        let why = problem(image, total - seen)?;
        changed = true;
        Some(described(&why))
    };
    let messages = request
        .messages
        .iter()
        .map(|message| match message {
            Message::User(parts) => Message::User(
                parts
                    .iter()
                    .map(|part| match part {
                        UserContent::Image(image) => {
                            fix(image).map_or_else(|| part.clone(), UserContent::Text)
                        }
                        UserContent::ToolResult(result) => {
                            let mut result = result.clone();
                            for piece in &mut result.content {
                                if let ToolResultContent::Image(image) = piece
                                    && let Some(text) = fix(image)
                                {
                                    *piece = ToolResultContent::Text(text);
                                }
                            }
                            UserContent::ToolResult(result)
                        }
                        UserContent::Text(_) => part.clone(),
                    })
                    .collect(),
            ),
            assistant => assistant.clone(),
        })
        .collect();
    changed.then(|| Request {
        messages,
        ..request.clone()
    })
}

fn images_in(message: &Message) -> usize {
    match message {
        Message::User(parts) => parts
            .iter()
            .map(|part| match part {
                UserContent::Image(_) => 1,
                UserContent::ToolResult(result) => result
                    .content
                    .iter()
                    .filter(|c| matches!(c, ToolResultContent::Image(_)))
                    .count(),
                UserContent::Text(_) => 0,
            })
            .sum(),
        Message::Assistant(_) => 0,
    }
}

/// The user turn that asks the model to go on from its own last message.
pub const GO_ON: &str = "Continue.";

/// `request` as it may be sent to a model of `profile`: itself when nothing in it needs
/// changing.
pub fn sendable<'a>(request: &'a Request, profile: &Profile) -> Cow<'a, Request> {
    match fitted(request, profile) {
        Some(fitted) => Cow::Owned(with_images_checked(&fitted).into_owned()),
        None => with_images_checked(request),
    }
}

/// [`sendable`], the profile aside.
fn with_images_checked(request: &Request) -> Cow<'_, Request> {
    match with_images_described(request, image_problem) {
        Some(described) => Cow::Owned(sendable_text(&described).into_owned()),
        None => sendable_text(request),
    }
}

/// The request as the model's profile says it takes it: no longer an answer than it may
/// write, no temperature or stop sequences it refuses, no tools if it calls none, no image
/// if it reads none; `None` when it takes the request as it is.
fn fitted(request: &Request, profile: &Profile) -> Option<Request> {
    let mut fitted = request.clone();
    if let Some(most) = profile.max_output {
        fitted.max_tokens = fitted.max_tokens.min(most);
    }
    if profile.temperature == Some(false) {
        fitted.temperature = None;
    }
    if profile.stop == Some(false) {
        fitted.stop_sequences.clear();
    }
    if profile.tools == Some(false) {
        fitted.tools.clear();
    }
    if profile.vision == Some(false)
        && let Some(described) =
            with_images_described(&fitted, |_, _| Some("the model reads no images".to_owned()))
    {
        fitted = described;
    }
    (fitted != *request).then_some(fitted)
}

/// [`sendable`], images aside.
fn sendable_text(request: &Request) -> Cow<'_, Request> {
    // The model's reasoning goes back within the turn under way alone: the providers that
    // check it check it there, and ignore (but count) the rest.
    let current = request
        .messages
        .iter()
        .rposition(Message::is_persons)
        .unwrap_or(0);
    let stale = |at: usize, message: &Message| at < current && has_reasoning(message);
    let ends_on_assistant = || matches!(request.messages.last(), Some(Message::Assistant(_)));
    let changes = request
        .messages
        .iter()
        .enumerate()
        .any(|(at, message)| has_blank_text(message) || stale(at, message));
    if !changes && !ends_on_assistant() {
        return Cow::Borrowed(request);
    }
    let mut messages: Vec<Message> = request
        .messages
        .iter()
        .cloned()
        .enumerate()
        .map(|(at, message)| {
            if at < current {
                without_reasoning(message)
            } else {
                message
            }
        })
        .filter_map(without_blank_text)
        .collect();
    if matches!(messages.last(), Some(Message::Assistant(_))) {
        messages.push(Message::user_text(GO_ON));
    }
    Cow::Owned(Request {
        messages,
        ..request.clone()
    })
}

fn has_reasoning(message: &Message) -> bool {
    matches!(message, Message::Assistant(content)
        if content.iter().any(|c| matches!(c, AssistantContent::Reasoning(_))))
}

fn without_reasoning(message: Message) -> Message {
    match message {
        Message::Assistant(mut content) => {
            content.retain(|c| !matches!(c, AssistantContent::Reasoning(_)));
            Message::Assistant(content)
        }
        user => user,
    }
}

/// How local servers say that the model, or the server as started, takes no tools:
/// Ollama, vLLM without `--enable-auto-tool-choice`, llama.cpp without `--jinja`. A
/// refusal that only mentions tools (a bad name, a bad schema) is a fault to show.
const TOOLS_REFUSED: &[&str] = &[
    "does not support tools",
    "tool choice requires",
    "tools param requires",
];

/// `request` without the optional parameter `refused` names, if it names one the request
/// carries (the words of OpenAI's and Anthropic's refusals: "Unsupported value:
/// 'temperature'", "temperature: Extra inputs are not permitted"): the one retry a model's
/// refusal of a parameter is worth; and what the refusal taught of the model.
pub fn without_refused_parameter(request: &Request, refused: &Error) -> Option<(Request, Profile)> {
    let Error::Refused {
        status: Some(400),
        message,
        ..
    } = refused
    else {
        return None;
    };
    let names = |word: &str| {
        message
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .any(|w| w == word)
    };
    let mut fewer = request.clone();
    let mut learned = Profile::NONE;
    if request.temperature.is_some() && names("temperature") {
        fewer.temperature = None;
        learned.temperature = Some(false);
    } else if !request.stop_sequences.is_empty() && (names("stop") || names("stop_sequences")) {
        fewer.stop_sequences.clear();
        learned.stop = Some(false);
    } else if request.effort.is_some()
        && (names("reasoning_effort") || names("reasoning") || names("thinking"))
    {
        fewer.effort = None;
    } else if !request.tools.is_empty() && TOOLS_REFUSED.iter().any(|p| message.contains(p)) {
        fewer.tools.clear();
        learned.tools = Some(false);
    } else if names("image") || names("image_url") || names("images") || names("vision") {
        fewer =
            with_images_described(request, |_, _| Some("the model reads no images".to_owned()))?;
        learned.vision = Some(false);
    } else {
        return None;
    }
    Some((fewer, learned))
}

fn blank(text: &str) -> bool {
    text.trim().is_empty()
}

fn has_blank_text(message: &Message) -> bool {
    match message {
        Message::User(content) => content
            .iter()
            .any(|c| matches!(c, UserContent::Text(text) if blank(text))),
        Message::Assistant(content) => content.iter().any(blank_answer),
    }
}

/// A part of an answer that says nothing: blank text, or reasoning with nothing to return.
fn blank_answer(part: &AssistantContent) -> bool {
    match part {
        AssistantContent::Text(text) => blank(text),
        AssistantContent::Reasoning(reasoning) => {
            blank(&reasoning.text) && reasoning.signature.is_none() && reasoning.redacted.is_none()
        }
        AssistantContent::ToolCall(_) => false,
    }
}

/// The message without its blank text, or nothing if that was all it held.
fn without_blank_text(message: Message) -> Option<Message> {
    let message = match message {
        Message::User(mut content) => {
            content.retain(|c| !matches!(c, UserContent::Text(text) if blank(text)));
            Message::User(content)
        }
        Message::Assistant(mut content) => {
            content.retain(|c| !blank_answer(c));
            Message::Assistant(content)
        }
    };
    let empty = match &message {
        Message::User(content) => content.is_empty(),
        Message::Assistant(content) => content.is_empty(),
    };
    (!empty).then_some(message)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The request as sent to the model its name tells.
    fn as_named(request: &Request) -> Cow<'_, Request> {
        sendable(request, &Profile::of(&request.model))
    }
    use crate::model::{Reasoning, Tool, ToolCall, ToolResult};

    fn image(media_type: &str, bytes: usize) -> UserContent {
        UserContent::Image(Image::Base64 {
            media_type: media_type.into(),
            data: "A".repeat(bytes / 3 * 4),
        })
    }

    fn texts(message: &Message) -> Vec<String> {
        let Message::User(parts) = message else {
            return Vec::new();
        };
        parts
            .iter()
            .filter_map(|p| match p {
                UserContent::Text(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn images_the_providers_refuse_are_described_and_only_the_newest_kept() {
        let mut parts = vec![image("image/bmp", 300), image("image/png", 6 * 1024 * 1024)];
        parts.extend((0..21).map(|_| image("image/png", 300)));
        let request = Request::new("m", 64, vec![Message::User(parts)]);
        let sent = as_named(&request);
        let said = texts(&sent.messages[0]);
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said[0].contains("of type image/bmp"), "{said:?}");
        assert!(said[1].contains("over the 5 MB"), "{said:?}");
        assert!(said[2].contains("more than 20"), "{said:?}");
        let Message::User(parts) = &sent.messages[0] else {
            panic!("user")
        };
        let kept = parts
            .iter()
            .filter(|p| matches!(p, UserContent::Image(_)))
            .count();
        assert_eq!(kept, 20, "the 20 newest");
        let fine = Request::new("m", 64, vec![Message::User(vec![image("image/png", 300)])]);
        assert!(matches!(as_named(&fine), Cow::Borrowed(_)));
    }

    #[test]
    fn a_model_that_reads_no_images_is_asked_again_with_them_described() {
        let request = Request::new(
            "llama3",
            64,
            vec![Message::User(vec![
                image("image/png", 300),
                UserContent::Text("What is it?".into()),
            ])],
        );
        let refused = Error::Refused {
            status: Some(400),
            kind: Some("invalid_request_error".into()),
            message: "Invalid content type. image_url is only supported by certain models.".into(),
        };
        let (fewer, learned) = without_refused_parameter(&request, &refused).expect("asked again");
        assert_eq!(learned.vision, Some(false), "and learns it");
        assert_eq!(
            texts(&fewer.messages[0]),
            [
                "[An image was left out here: the model reads no images.]",
                "What is it?"
            ]
        );
        assert_eq!(without_refused_parameter(&fewer, &refused), None, "once");
    }

    #[test]
    fn reasoning_goes_back_within_the_turn_under_way_only() {
        let thought = |text: &str| {
            AssistantContent::Reasoning(Reasoning {
                text: text.into(),
                signature: Some(format!("sig {text}")),
                ..Reasoning::default()
            })
        };
        let call = ToolCall {
            id: "c1".into(),
            name: "echo".into(),
            arguments: json!({}),
        };
        let result = UserContent::ToolResult(ToolResult {
            call_id: "c1".into(),
            content: Vec::new(),
            is_error: false,
            not_made: false,
        });
        let request = Request::new(
            "m",
            64,
            vec![
                Message::user_text("First"),
                Message::Assistant(vec![thought("old"), AssistantContent::Text("One.".into())]),
                Message::user_text("Second"),
                Message::Assistant(vec![
                    thought("new"),
                    AssistantContent::ToolCall(call.clone()),
                ]),
                Message::User(vec![result]),
            ],
        );
        let sent = as_named(&request);
        assert_eq!(
            sent.messages[1],
            Message::Assistant(vec![AssistantContent::Text("One.".into())]),
            "an earlier turn's reasoning stays home"
        );
        assert_eq!(
            sent.messages[3],
            Message::Assistant(vec![thought("new"), AssistantContent::ToolCall(call)]),
            "the round under way carries its own"
        );
        let only_old = Request::new(
            "m",
            64,
            vec![
                Message::user_text("First"),
                Message::Assistant(vec![thought("old")]),
                Message::user_text("Second"),
            ],
        );
        assert_eq!(
            as_named(&only_old).messages,
            [Message::user_text("First"), Message::user_text("Second")],
            "a message of nothing else goes with it"
        );
    }

    #[test]
    fn a_request_with_nothing_blank_is_sent_as_it_is() {
        let request = Request::new("m", 64, vec![Message::user_text("Hi")]);
        assert!(matches!(as_named(&request), Cow::Borrowed(_)));
    }

    #[test]
    fn blank_text_goes_and_a_message_left_empty_with_it() {
        let call = ToolCall {
            id: "c1".into(),
            name: "add".into(),
            arguments: json!({}),
        };
        let result = ToolResult {
            call_id: "c1".into(),
            content: Vec::new(),
            is_error: false,
            not_made: false,
        };
        let request = Request::new(
            "m",
            64,
            vec![
                Message::user_text("Add"),
                Message::Assistant(vec![
                    AssistantContent::Text("\n".into()),
                    AssistantContent::ToolCall(call.clone()),
                ]),
                Message::User(vec![UserContent::ToolResult(result.clone())]),
                Message::assistant_text(" "),
                Message::User(vec![
                    UserContent::Text("".into()),
                    UserContent::Text("And now?".into()),
                ]),
            ],
        );
        let sent = as_named(&request);
        assert_eq!(
            sent.messages,
            [
                Message::user_text("Add"),
                Message::Assistant(vec![AssistantContent::ToolCall(call)]),
                Message::User(vec![UserContent::ToolResult(result)]),
                Message::User(vec![UserContent::Text("And now?".into())]),
            ]
        );
        assert_eq!(sent.model, "m", "the rest as it was");
    }

    #[test]
    fn a_parameter_a_refusal_names_is_left_out_once_and_nothing_else() {
        let mut request = Request::new("o3", 64, vec![Message::user_text("Hi")]);
        request.temperature = Some(0.3);
        request.stop_sequences = vec!["END".into()];
        let refused = |message: &str| Error::Refused {
            status: Some(400),
            kind: None,
            message: message.into(),
        };
        let warm = refused(
            "Unsupported value: 'temperature' does not support 0.3 with this model. Only the default (1) value is supported.",
        );
        let (fewer, learned) = without_refused_parameter(&request, &warm).unwrap();
        assert_eq!(fewer.temperature, None);
        assert_eq!(
            learned,
            Profile {
                temperature: Some(false),
                ..Profile::NONE
            }
        );
        assert_eq!(fewer.stop_sequences, ["END"], "only what was named");
        assert_eq!(
            without_refused_parameter(&fewer, &warm),
            None,
            "nothing left to leave out"
        );
        let stop = refused("Unsupported parameter: 'stop' is not supported with this model.");
        let (fewer, learned) = without_refused_parameter(&request, &stop).unwrap();
        assert!(fewer.stop_sequences.is_empty() && learned.stop == Some(false));
        assert_eq!(
            without_refused_parameter(&request, &refused("max_tokens: Field required")),
            None
        );
        // A local model that takes no tools is asked without them; a bad tool is a fault.
        request.tools.push(Tool {
            name: "echo".into(),
            description: None,
            parameters: json!({"type": "object"}),
        });
        let toolless = refused("registry.ollama.ai/library/gemma2:2b does not support tools");
        let (fewer, learned) = without_refused_parameter(&request, &toolless).unwrap();
        assert!(fewer.tools.is_empty() && fewer.temperature.is_some());
        assert_eq!(learned.tools, Some(false));
        let vllm = refused(
            "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",
        );
        assert!(
            without_refused_parameter(&request, &vllm)
                .unwrap()
                .0
                .tools
                .is_empty()
        );
        let bad_name = refused("Invalid 'tools[0].function.name': string does not match pattern.");
        assert_eq!(without_refused_parameter(&request, &bad_name), None);
        let unavailable = Error::Connection("temperature".into());
        assert_eq!(without_refused_parameter(&request, &unavailable), None);
    }

    #[test]
    fn a_conversation_that_ends_on_the_models_turn_asks_it_to_go_on() {
        let request = Request::new(
            "m",
            64,
            vec![
                Message::user_text("Name a colour."),
                Message::assistant_text("The colour is"),
            ],
        );
        let sent = as_named(&request);
        assert_eq!(sent.messages.len(), 3);
        assert_eq!(sent.messages[2], Message::user_text(GO_ON));
    }
}

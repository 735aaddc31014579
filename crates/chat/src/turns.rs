//! The person's turns in a conversation: each begins with a message of theirs (not the
//! results of the model's tool calls, which the providers also carry as the user's) and
//! runs until the next one. Taking a turn back removes all of it, so that no call is left
//! without its result and no result without its call.

use std::ops::Range;

use switchboard_providers::Message;

/// Whether `message` begins a turn of the person's.
pub fn begins_turn(message: &Message) -> bool {
    message.is_persons()
}

/// The messages of the turn that begins at `at`, up to the next turn; `None` when no turn
/// begins there.
pub fn turn_at(messages: &[Message], at: usize) -> Option<Range<usize>> {
    if !messages.get(at).is_some_and(begins_turn) {
        return None;
    }
    let end = messages[at + 1..]
        .iter()
        .position(begins_turn)
        .map_or(messages.len(), |n| at + 1 + n);
    Some(at..end)
}

/// Where the model's answer to the last turn begins: what regenerating it replaces.
pub fn last_answer(messages: &[Message]) -> Option<usize> {
    messages.iter().rposition(begins_turn).map(|at| at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_providers::{
        AssistantContent, ToolCall, ToolResult, ToolResultContent, UserContent,
    };

    fn conversation() -> Vec<Message> {
        let call = ToolCall {
            id: "c1".into(),
            name: "demo__add".into(),
            arguments: serde_json::json!({"a": 2, "b": 3}),
        };
        vec![
            Message::user_text("Add 2 and 3"),
            Message::Assistant(vec![AssistantContent::ToolCall(call)]),
            Message::User(vec![
                UserContent::ToolResult(ToolResult {
                    call_id: "c1".into(),
                    content: vec![ToolResultContent::Text("5".into())],
                    is_error: false,
                    not_made: false,
                }),
                UserContent::Text("The person changed the arguments.".into()),
            ]),
            Message::assistant_text("It is 5."),
            Message::user_text("Thanks"),
            Message::assistant_text("You're welcome."),
        ]
    }

    #[test]
    fn a_turn_runs_from_the_persons_message_to_the_next_with_its_tool_rounds() {
        let messages = conversation();
        assert_eq!(turn_at(&messages, 0), Some(0..4));
        assert_eq!(turn_at(&messages, 4), Some(4..6));
        assert_eq!(turn_at(&messages, 2), None, "tool results begin no turn");
        assert_eq!(turn_at(&messages, 3), None);
        assert_eq!(turn_at(&messages, 6), None);
    }

    #[test]
    fn the_last_answer_follows_the_last_turn() {
        let messages = conversation();
        assert_eq!(last_answer(&messages), Some(5));
        assert_eq!(last_answer(&messages[..4]), Some(1));
        assert_eq!(last_answer(&messages[1..4]), None);
    }
}

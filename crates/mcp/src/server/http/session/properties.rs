//! Properties of the router's peek at what the server writes: a response goes to the POST
//! that carried its request and progress to the POST that set its token, as a full parse of
//! the message would tell; a message the peek cannot tell goes where what the server starts
//! goes, never to a POST it does not answer.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseResult};
use serde_json::{Value, json};

use super::{Destination, destination};
use crate::fuzz::{fuzz, message_text, mutated, soup};
use crate::jsonrpc::{ErrorObject, Frame, Message, Notification, RequestId, Response};
use crate::types::{ProgressToken, method};

/// Where a message goes, comparable: the ids and tokens as values, since a body may spell
/// them as it likes (what the server writes, it spells one way: see `check`).
#[derive(Debug, PartialEq)]
enum Route {
    /// The requests it answers, and whether with an error.
    Answers(Vec<(Value, bool)>),
    Progress(Value),
    Other,
}

impl Route {
    fn of(message: &str) -> Self {
        match destination(message) {
            Destination::Response(answers) => {
                let answers = answers.into_iter().map(|a| (json_of(&a.id), a.is_error));
                Self::Answers(answers.collect())
            }
            Destination::Progress(token) => Self::Progress(json_of(&token)),
            Destination::Other => Self::Other,
        }
    }

    /// Where a message read in full goes.
    fn expected(message: &Message) -> Self {
        match message {
            Message::Response(r) => Self::Answers(vec![(id_value(&r.id), r.outcome.is_err())]),
            Message::Notification(Notification {
                params: Some(Value::Object(params)),
                ..
            }) => match params.get("progressToken") {
                Some(token) if !token.is_null() => Self::Progress(token.clone()),
                _ => Self::Other,
            },
            _ => Self::Other,
        }
    }

    /// Where the server's own messages go: what it cannot tell, it sends nowhere else.
    fn refused(&self) -> bool {
        matches!(self, Self::Other) || *self == Self::Answers(Vec::new())
    }
}

fn id_value(id: &RequestId) -> Value {
    serde_json::to_value(id).expect("an id is JSON")
}

/// An id or a token as the peek found it: JSON text.
fn json_of(text: &str) -> Value {
    serde_json::from_str(text).expect("an id or a token is JSON")
}

/// A POST body: one message or a batch of them, perhaps with a few bytes changed, or
/// bytes of JSON tokens.
fn body() -> impl Strategy<Value = String> {
    let message = message_text().prop_map(|(text, _)| text);
    let batch = proptest::collection::vec(message.clone(), 0..4)
        .prop_map(|messages| format!("[{}]", messages.join(",")));
    let written = prop_oneof![3 => message, 1 => batch];
    prop_oneof![
        4 => written.clone(),
        2 => mutated(written.prop_map(String::into_bytes))
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        1 => soup(&[
            b"{", b"}", b"[", b"]", b":", b",", b"\"id\"", b"\"method\"", b"\"params\"",
            b"\"result\"", b"\"error\"", b"\"progressToken\"", b"null", b"1", b"\"a\"",
        ])
        .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

/// The answers and progress the server writes for a body's requests are routed to its
/// POST; each message of it, as the server would write it, is routed as a full parse says;
/// the body as written is routed so too, or refused.
fn check(body: &str) -> TestCaseResult {
    let frame = Frame::decode(body);
    let awaited = super::super::awaited(&frame);
    let requests: Vec<_> = frame
        .items
        .iter()
        .filter_map(|item| match item {
            Ok(Message::Request(r)) => Some(r),
            _ => None,
        })
        .collect();
    prop_assert_eq!(awaited.ids.len(), requests.len());
    for (request, id) in requests.iter().zip(&awaited.ids) {
        for outcome in [Ok(json!({})), Err(ErrorObject::new(-1, "no"))] {
            let is_error = outcome.is_err();
            let answer = Message::Response(Response {
                id: request.id.clone(),
                outcome,
            });
            // The very text the body's reading keeps, as the router looks it up.
            let Destination::Response(answers) = destination(&answer.to_json()) else {
                return Err(TestCaseError::fail(format!("{answer:?} is no answer")));
            };
            let answers: Vec<_> = answers.into_iter().map(|a| (a.id, a.is_error)).collect();
            prop_assert_eq!(answers, vec![(id.clone(), is_error)]);
        }
        let token = request
            .params
            .as_ref()
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .and_then(|t| serde_json::from_value::<ProgressToken>(t.clone()).ok());
        if let Some(token) = token {
            let progress = Message::Notification(Notification {
                method: method::PROGRESS.into(),
                params: Some(json!({"progressToken": token, "progress": 1})),
            });
            let Destination::Progress(routed) = destination(&progress.to_json()) else {
                return Err(TestCaseError::fail(format!("{progress:?} is not progress")));
            };
            prop_assert!(
                awaited.tokens.contains(&routed),
                "{} {:?}",
                routed,
                awaited.tokens
            );
        }
    }
    for message in frame.items.iter().flatten() {
        prop_assert_eq!(
            Route::of(&message.to_json()),
            Route::expected(message),
            "{}",
            message.to_json()
        );
    }
    if !frame.items.is_empty() && frame.items.iter().all(Result::is_ok) {
        let expected = match (frame.batch, &frame.items[..]) {
            (false, [Ok(message)]) => Route::expected(message),
            _ => Route::Answers(
                frame
                    .items
                    .iter()
                    .flatten()
                    .filter_map(|message| match message {
                        Message::Response(r) => Some((id_value(&r.id), r.outcome.is_err())),
                        _ => None,
                    })
                    .collect(),
            ),
        };
        let routed = Route::of(body);
        prop_assert!(
            routed == expected || routed.refused(),
            "{:?} for {:?}",
            routed,
            expected
        );
    } else {
        // The server writes nothing that does not read: only no panic then.
        let _ = destination(body);
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config::with_cases(1_000))]

    #[test]
    fn a_message_is_routed_as_a_full_parse_says_or_refused(body in body()) {
        check(&body)?;
    }
}

#[test]
#[ignore = "long: see crate::fuzz"]
fn fuzz_router_peek() {
    fuzz("router peek", body(), |body| check(&body));
}

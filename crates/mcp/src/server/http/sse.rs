//! Bodies for a session's streams: server-sent events, or the JSON answer of a POST.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;

use super::Body;
use super::session::Stream;

/// Each message as one `message` event; the body ends when the stream does.
pub fn body(stream: Stream) -> Body {
    let events = futures_util::stream::unfold(stream, |mut stream| async move {
        let message = stream.recv().await?;
        Some((
            Ok::<_, Infallible>(Frame::data(Bytes::from(event(&message)))),
            stream,
        ))
    });
    StreamBody::new(events).boxed_unsync()
}

fn event(message: &str) -> String {
    let mut event = String::with_capacity(message.len() + 24);
    event.push_str("event: message\n");
    // Messages are written on one line; a line break would end the field, so split on it.
    for line in message.split('\n') {
        event.push_str("data: ");
        event.push_str(line.strip_suffix('\r').unwrap_or(line));
        event.push('\n');
    }
    event.push('\n');
    event
}

/// The answers of a POST as one JSON body (an array if there were several); `None` if the
/// session ended first.
pub async fn collect(mut stream: Stream) -> Option<String> {
    let mut answers = Vec::new();
    while let Some(message) = stream.recv().await {
        answers.push(message);
    }
    match answers.len() {
        0 => None,
        1 => answers.pop(),
        _ => Some(format!("[{}]", answers.join(","))),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_message_is_one_event_and_a_line_break_never_ends_it() {
        assert_eq!(
            super::event(r#"{"a":1}"#),
            "event: message\ndata: {\"a\":1}\n\n"
        );
        assert_eq!(
            super::event("{\n\"a\":1}"),
            "event: message\ndata: {\ndata: \"a\":1}\n\n"
        );
    }
}

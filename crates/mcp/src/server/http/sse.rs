//! Bodies for a session's streams: server-sent events, or the JSON answer of a POST.

use std::convert::Infallible;
use std::time::Duration;

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

/// How long a stream stays silent before a comment keeps it open: clients and proxies drop
/// a response that says nothing for minutes, and writing is how a client that left is found.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// [`body`] for a stream whose first message was read already, with a comment whenever it
/// is silent for [`KEEPALIVE`] (a call waiting for a person, a subscription with nothing to
/// tell); `keep` is dropped with the body (when the stream ends or the client closes it).
pub fn body_after(first: String, stream: Stream, keep: impl Send + 'static) -> Body {
    let events = futures_util::stream::unfold(
        (Some(first), stream, keep),
        |(first, mut stream, keep)| async move {
            let text = match first {
                Some(first) => event(&first),
                None => match tokio::time::timeout(KEEPALIVE, stream.recv()).await {
                    Ok(message) => event(&message?),
                    Err(_) => ": keepalive\n\n".to_owned(),
                },
            };
            Some((
                Ok::<_, Infallible>(Frame::data(Bytes::from(text))),
                (None, stream, keep),
            ))
        },
    );
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

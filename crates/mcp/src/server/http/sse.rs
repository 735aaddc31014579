//! Bodies for a session's streams: server-sent events, or the JSON answer of a POST.

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Response};
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;

use super::Body;
use super::outlet::{Event, Stream};

/// How long a stream stays silent before a comment keeps it open: clients and proxies drop
/// a response that says nothing for minutes (the official SDK clients after 300 s), and
/// writing is how a client that left is found.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// An event stream: each message as one `message` event with its id, `first` (if read
/// already) first, and a comment whenever the stream is silent for [`KEEPALIVE`] (a call
/// waiting for a person, a GET stream with nothing to tell); the body ends when the stream
/// does, and `keep` is dropped with it (when the stream ends or the client closes it).
pub fn response(first: Option<Event>, stream: Stream, keep: impl Send + 'static) -> Response<Body> {
    let mut response = Response::new(body(first, stream, keep));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Proxies that buffer responses would hold the events back.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

fn body(first: Option<Event>, stream: Stream, keep: impl Send + 'static) -> Body {
    let events = futures_util::stream::unfold(
        (first, stream, keep),
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

fn event(event: &Event) -> String {
    let message = &*event.message;
    let id = event.id.as_deref();
    let mut event = String::with_capacity(message.len() + 48);
    if let Some(id) = id {
        event.push_str("id: ");
        event.push_str(id);
        event.push('\n');
    }
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
    while let Some(event) = stream.recv().await {
        answers.push(event.message.to_string());
    }
    match answers.len() {
        0 => None,
        1 => answers.pop(),
        _ => Some(format!("[{}]", answers.join(","))),
    }
}

#[cfg(test)]
mod tests {
    use super::Event;

    fn event(id: Option<&str>, message: &str) -> String {
        super::event(&Event {
            id: id.map(str::to_owned),
            message: message.into(),
            request: false,
        })
    }

    #[test]
    fn a_message_is_one_event_and_a_line_break_never_ends_it() {
        assert_eq!(
            event(None, r#"{"a":1}"#),
            "event: message\ndata: {\"a\":1}\n\n"
        );
        assert_eq!(
            event(Some("2-5"), "{\n\"a\":1}"),
            "id: 2-5\nevent: message\ndata: {\ndata: \"a\":1}\n\n"
        );
    }
}

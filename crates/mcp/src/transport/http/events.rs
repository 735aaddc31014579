//! Reading a `text/event-stream` body, keeping what resumption needs: the last event id
//! and the reconnection delay the server asked for.
//!
//! `eventsource-stream` parses the events. It reads again what it holds whenever a chunk
//! arrives, so a large event split over many chunks would be rescanned once per chunk;
//! it is therefore handed whole lines only, and each byte is looked at once on the way.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};

type Events = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// Where a stream stopped, so that it can be resumed.
#[derive(Debug, Default, Clone)]
pub struct Cursor {
    pub last_id: Option<String>,
    pub retry: Option<Duration>,
}

pub struct EventReader {
    events: Events,
}

impl EventReader {
    pub fn new(response: reqwest::Response) -> Self {
        Self {
            events: Box::pin(whole_lines(response.bytes_stream()).eventsource()),
        }
    }

    /// The next event, noting its id and retry in `cursor`; `None` when the stream ends,
    /// `Err` when it broke.
    pub async fn next(&mut self, cursor: &mut Cursor) -> Option<Result<Event, String>> {
        let event = match self.events.next().await? {
            Ok(event) => event,
            Err(err) => return Some(Err(err.to_string())),
        };
        if !event.id.is_empty() {
            cursor.last_id = Some(event.id.clone());
        }
        if let Some(retry) = event.retry {
            cursor.retry = Some(retry);
        }
        Some(Ok(event))
    }
}

/// Regroups a body's chunks so that each ends with a complete line (the last piece of a
/// stream excepted).
fn whole_lines<S, B, E>(chunks: S) -> impl Stream<Item = Result<Vec<u8>, E>> + Send
where
    S: Stream<Item = Result<B, E>> + Send + Unpin,
    B: AsRef<[u8]>,
    E: Send,
{
    futures_util::stream::unfold(
        (chunks, Vec::new(), false),
        |(mut chunks, mut pending, ended): (S, Vec<u8>, bool)| async move {
            if ended {
                return None;
            }
            loop {
                match chunks.next().await {
                    Some(Ok(chunk)) => {
                        // Only the new bytes are searched, with the byte before them: a `\r`
                        // held back may be the first half of a `\r\n`.
                        let from = pending.len().saturating_sub(1);
                        pending.extend_from_slice(chunk.as_ref());
                        if let Some(end) = complete_lines(&pending[from..]) {
                            let rest = pending.split_off(from + end);
                            let lines = std::mem::replace(&mut pending, rest);
                            return Some((Ok(lines), (chunks, pending, false)));
                        }
                    }
                    Some(Err(err)) => return Some((Err(err), (chunks, pending, true))),
                    None if pending.is_empty() => return None,
                    None => {
                        let last = std::mem::take(&mut pending);
                        return Some((Ok(last), (chunks, pending, true)));
                    }
                }
            }
        },
    )
}

/// Where the complete lines of `bytes` end: after the last line break, but never after a
/// final `\r`, which may be followed by the `\n` of the same break.
fn complete_lines(bytes: &[u8]) -> Option<usize> {
    let searched = match bytes.split_last() {
        Some((b'\r', head)) => head,
        _ => bytes,
    };
    memchr::memrchr2(b'\n', b'\r', searched).map(|at| at + 1)
}

/// Whether an event carries a JSON-RPC message (`message`, or no event name at all).
pub fn is_message(event: &Event) -> bool {
    (event.event.is_empty() || event.event == "message") && !event.data.trim().is_empty()
}

pub fn is_event_stream(response: &reqwest::Response) -> bool {
    content_type(response).starts_with("text/event-stream")
}

pub fn content_type(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    /// The events of a body that arrives in these chunks.
    async fn events_of(chunks: Vec<Vec<u8>>) -> Vec<(String, String)> {
        let body = futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Infallible>));
        whole_lines(body)
            .eventsource()
            .map(|e| e.map(|e| (e.event, e.data)).expect("a well-formed event"))
            .collect()
            .await
    }

    #[tokio::test]
    async fn a_large_event_in_many_chunks_arrives_whole() {
        let data = "x".repeat(1_000_000);
        let body = format!("event: message\ndata: {data}\n\ndata: next\n\n").into_bytes();
        let chunks = body.chunks(997).map(<[u8]>::to_vec).collect();
        let events = events_of(chunks).await;
        assert_eq!(events.len(), 2);
        assert_eq!(events[0], ("message".to_owned(), data));
        assert_eq!(events[1].1, "next");
    }

    #[tokio::test]
    async fn a_line_break_split_between_chunks_is_one_break() {
        let chunks = vec![
            b"data: a\r".to_vec(),
            b"\ndata: b\r".to_vec(),
            b"\n\r\n".to_vec(),
        ];
        assert_eq!(
            events_of(chunks).await,
            [("message".to_owned(), "a\nb".to_owned())]
        );
    }

    #[tokio::test]
    async fn carriage_returns_alone_end_lines_too() {
        // A `\r` is known to end a line once the byte after it is seen (here a comment).
        let chunks = vec![
            b"data: a\r\r".to_vec(),
            b"data: b\r".to_vec(),
            b"\r: end\r".to_vec(),
        ];
        let data: Vec<String> = events_of(chunks).await.into_iter().map(|e| e.1).collect();
        assert_eq!(data, ["a", "b"]);
    }

    #[test]
    fn complete_lines_end_after_the_last_break_but_not_a_final_cr() {
        assert_eq!(complete_lines(b"ab\ncd"), Some(3));
        assert_eq!(complete_lines(b"ab\r"), None);
        assert_eq!(complete_lines(b"a\rb\r"), Some(2));
        assert_eq!(complete_lines(b"abc"), None);
    }
}

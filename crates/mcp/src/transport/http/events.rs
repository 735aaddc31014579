//! Reading a `text/event-stream` body, keeping what resumption needs: the last event id
//! and the reconnection delay the server asked for.
//!
//! `eventsource-stream` parses the events. It reads again what it holds whenever a chunk
//! arrives, so a large event split over many chunks would be rescanned once per chunk; it
//! is therefore handed whole events only, regrouped here with each byte looked at once.
//! The regrouping also reads what `eventsource-stream` cannot tell: an `id` or `retry` in
//! an event without data (a 2025-11-25 server primes a stream that way before it closes
//! it for the client to poll), and an event larger than the limit, which is dropped as it
//! arrives and reported in its place.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};

/// Why a body's events stopped short of the next one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// One event was over the limit: it was dropped, and the stream goes on.
    #[error("an event of {bytes} bytes or more, over the limit of {limit}")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the event stream broke: {0}")]
    Broken(String),
}

type Events = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<Fault>>> + Send>>;

/// Where a stream stopped, so that it can be resumed.
#[derive(Debug, Default, Clone)]
pub struct Cursor {
    pub last_id: Option<String>,
    pub retry: Option<Duration>,
}

pub struct EventReader {
    events: Events,
    fields: Arc<Mutex<Cursor>>,
}

impl EventReader {
    pub fn new(response: reqwest::Response, max_event_bytes: usize) -> Self {
        let fields = Arc::new(Mutex::new(Cursor::default()));
        let chunks = response
            .bytes_stream()
            .map(|chunk| chunk.map_err(|e| Fault::Broken(e.to_string())));
        Self {
            events: Box::pin(whole_events(chunks, max_event_bytes, fields.clone()).eventsource()),
            fields,
        }
    }

    /// The next event, noting the last id and retry in `cursor`; `None` when the stream
    /// ends.
    pub async fn next(&mut self, cursor: &mut Cursor) -> Option<Result<Event, Fault>> {
        let event = self.events.next().await;
        // What an earlier stream of the same request said holds until this one says more.
        if let Ok(fields) = self.fields.lock() {
            // An empty id clears it: nothing to resume from.
            if let Some(id) = &fields.last_id {
                cursor.last_id = Some(id.clone()).filter(|id| !id.is_empty());
            }
            cursor.retry = fields.retry.or(cursor.retry);
        }
        Some(event?.map_err(|e| match e {
            EventStreamError::Transport(fault) => fault,
            other => Fault::Broken(other.to_string()),
        }))
    }
}

/// Regroups a body's chunks into whole events, each handed on as soon as it is complete.
fn whole_events<S, B>(
    chunks: S,
    limit: usize,
    fields: Arc<Mutex<Cursor>>,
) -> impl Stream<Item = Result<Vec<u8>, Fault>> + Send
where
    S: Stream<Item = Result<B, Fault>> + Send + Unpin,
    B: AsRef<[u8]>,
{
    let scanner = Scanner::new(limit, fields);
    // The stream starts with an empty line, which is no event: `eventsource-stream` cuts
    // what it takes for a byte order mark at the start of its input by one byte, and would
    // panic on a real one (a second mark, after the one skipped here).
    let blank = futures_util::stream::once(async { Ok(b"\n".to_vec()) });
    let events = futures_util::stream::unfold(
        (chunks, scanner, false),
        |(mut chunks, mut scanner, ended)| async move {
            if ended {
                return None;
            }
            let out = match chunks.next().await {
                Some(Ok(chunk)) => scanner.push(chunk.as_ref()),
                Some(Err(fault)) => vec![Err(fault)],
                None => {
                    let last = scanner.finish();
                    return Some((last, (chunks, scanner, true)));
                }
            };
            Some((out, (chunks, scanner, false)))
        },
    )
    .flat_map(futures_util::stream::iter);
    blank.chain(events)
}

const BOM: &[u8] = "\u{feff}".as_bytes();

/// Whole events as valid UTF-8: `eventsource-stream` ends a stream at the first invalid
/// byte, so bytes that are not text are replaced (and the event, no longer JSON-RPC,
/// skipped later) instead.
fn valid_utf8(events: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(events) {
        Ok(text) => text.into_bytes(),
        Err(e) => String::from_utf8_lossy(e.as_bytes())
            .into_owned()
            .into_bytes(),
    }
}

/// Splits bytes into lines (ended by CR, LF or CRLF) and lines into events (ended by an
/// empty line), keeping the current event until it is complete or over the limit.
struct Scanner {
    limit: usize,
    fields: Arc<Mutex<Cursor>>,
    /// Complete events not handed on yet, then the current event as far as it came.
    kept: Vec<u8>,
    /// Where the complete events in `kept` end.
    complete: usize,
    line_start: usize,
    line_len: usize,
    event_len: usize,
    /// The last byte was a CR: an LF right after it ends no further line.
    after_cr: bool,
    /// The last event ended with a CR, and is handed on once the byte after it is known
    /// (the parser waits for it anyway, to tell a CR from a CRLF).
    ended_by_cr: bool,
    /// The current event is over the limit and is being dropped.
    dropping: bool,
    /// An `id` of the current event, which counts once the event is complete.
    event_id: Option<String>,
    /// The first bytes of the body while they may still be a byte order mark.
    lead: Option<Vec<u8>>,
}

impl Scanner {
    fn new(limit: usize, fields: Arc<Mutex<Cursor>>) -> Self {
        Self {
            limit,
            fields,
            kept: Vec::new(),
            complete: 0,
            line_start: 0,
            line_len: 0,
            event_len: 0,
            after_cr: false,
            ended_by_cr: false,
            dropping: false,
            event_id: None,
            lead: Some(Vec::new()),
        }
    }

    /// Takes the next chunk; returns what is ready, in order.
    fn push(&mut self, bytes: &[u8]) -> Vec<Result<Vec<u8>, Fault>> {
        // A byte order mark may open the body, and is no part of it (nor, split by a chunk
        // boundary, a thing `eventsource-stream` can take).
        let Some(mut lead) = self.lead.take() else {
            return self.scan(bytes);
        };
        lead.extend_from_slice(bytes);
        if lead.len() < BOM.len() && BOM.starts_with(&lead) {
            self.lead = Some(lead);
            return Vec::new();
        }
        let body = lead.strip_prefix(BOM).unwrap_or(&lead);
        self.scan(body)
    }

    fn scan(&mut self, mut bytes: &[u8]) -> Vec<Result<Vec<u8>, Fault>> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            if self.after_cr {
                if bytes[0] == b'\n' {
                    self.keep(b"\n");
                    bytes = &bytes[1..];
                }
                self.after_cr = false;
                self.line_start = self.kept.len();
                if std::mem::take(&mut self.ended_by_cr) {
                    self.complete = self.kept.len();
                }
                continue;
            }
            let Some(at) = memchr::memchr2(b'\n', b'\r', bytes) else {
                self.extend_line(bytes, &mut out);
                break;
            };
            self.extend_line(&bytes[..at], &mut out);
            self.keep(&bytes[at..=at]);
            self.after_cr = bytes[at] == b'\r';
            self.end_line();
            bytes = &bytes[at + 1..];
        }
        if self.complete > 0 {
            let rest = self.kept.split_off(self.complete);
            out.push(Ok(valid_utf8(std::mem::replace(&mut self.kept, rest))));
            self.line_start -= self.complete;
            self.complete = 0;
        }
        out
    }

    /// What is left when the body ends: an event cut short is no event.
    fn finish(&mut self) -> Vec<Result<Vec<u8>, Fault>> {
        let mut out = Vec::new();
        if std::mem::take(&mut self.ended_by_cr) {
            out.push(Ok(valid_utf8(std::mem::take(&mut self.kept))));
        }
        // The parser waits for the byte after a final CR: there is none.
        out.push(Ok(b"\n".to_vec()));
        out
    }

    fn keep(&mut self, bytes: &[u8]) {
        if !self.dropping {
            self.kept.extend_from_slice(bytes);
        }
    }

    fn extend_line(&mut self, bytes: &[u8], out: &mut Vec<Result<Vec<u8>, Fault>>) {
        self.line_len += bytes.len();
        self.event_len += bytes.len();
        self.keep(bytes);
        if !self.dropping && self.event_len > self.limit {
            // Complete events go first, then the big one is let go as it arrives.
            if self.complete > 0 {
                let rest = self.kept.split_off(self.complete);
                out.push(Ok(valid_utf8(std::mem::replace(&mut self.kept, rest))));
            }
            self.kept = Vec::new();
            self.complete = 0;
            self.dropping = true;
            self.event_id = None;
            // Told at once: whoever waits for it need not wait for its end.
            out.push(Err(self.too_large()));
        }
    }

    fn end_line(&mut self) {
        let empty = self.line_len == 0;
        if !empty && !self.dropping {
            // Without its line break.
            let end = self.kept.len() - 1;
            self.field(self.line_start, end);
        }
        if empty {
            self.end_event();
        }
        self.line_start = if self.dropping { 0 } else { self.kept.len() };
        self.line_len = 0;
    }

    fn end_event(&mut self) {
        if self.dropping {
            self.dropping = false;
            self.kept.clear();
        } else if let Some(id) = self.event_id.take()
            && let Ok(mut fields) = self.fields.lock()
        {
            fields.last_id = Some(id);
        }
        if self.after_cr {
            self.ended_by_cr = true;
        } else {
            self.complete = self.kept.len();
        }
        self.event_len = 0;
    }

    fn too_large(&self) -> Fault {
        Fault::TooLarge {
            bytes: self.event_len,
            limit: self.limit,
        }
    }

    /// Notes the fields that resumption needs; `eventsource-stream` reads the rest.
    fn field(&mut self, start: usize, end: usize) {
        let line = &self.kept[start..end];
        let (name, value) = match memchr::memchr(b':', line) {
            Some(at) => (&line[..at], &line[at + 1..]),
            None => (line, &[][..]),
        };
        let value = value.strip_prefix(b" ").unwrap_or(value);
        match name {
            // An id with a NUL in it is ignored, as the standard says.
            b"id" if !value.contains(&0) => {
                self.event_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let millis = std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<u64>().ok());
                if let (Some(millis), Ok(mut fields)) = (millis, self.fields.lock()) {
                    fields.retry = Some(Duration::from_millis(millis));
                }
            }
            _ => {}
        }
    }
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

    /// The events and faults of a body that arrives in these chunks, and the cursor after.
    async fn read(
        chunks: Vec<Vec<u8>>,
        limit: usize,
    ) -> (Vec<Result<(String, String), Fault>>, Cursor) {
        let fields = Arc::new(Mutex::new(Cursor::default()));
        let body = futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Fault>));
        let events = whole_events(body, limit, fields.clone())
            .eventsource()
            .map(|e| match e {
                Ok(e) => Ok((e.event, e.data)),
                Err(EventStreamError::Transport(fault)) => Err(fault),
                Err(other) => panic!("{other}"),
            })
            .collect()
            .await;
        let cursor = fields.lock().expect("fields").clone();
        (events, cursor)
    }

    fn data(events: &[Result<(String, String), Fault>]) -> Vec<String> {
        events
            .iter()
            .map(|e| match e {
                Ok((_, data)) => data.clone(),
                Err(fault) => format!("<{fault}>"),
            })
            .collect()
    }

    #[tokio::test]
    async fn a_large_event_in_many_chunks_arrives_whole() {
        let data = "x".repeat(1_000_000);
        let body = format!("event: message\ndata: {data}\n\ndata: next\n\n").into_bytes();
        let chunks = body.chunks(997).map(<[u8]>::to_vec).collect();
        let (events, _) = read(chunks, usize::MAX).await;
        assert_eq!(events.len(), 2);
        assert_eq!(events[0], Ok(("message".to_owned(), data)));
        assert_eq!(data_of(&events[1]), "next");
    }

    fn data_of(event: &Result<(String, String), Fault>) -> &str {
        event.as_ref().map(|e| e.1.as_str()).unwrap_or("<fault>")
    }

    #[tokio::test]
    async fn a_line_break_split_between_chunks_is_one_break() {
        let chunks = vec![
            b"data: a\r".to_vec(),
            b"\ndata: b\r".to_vec(),
            b"\n\r\n".to_vec(),
        ];
        assert_eq!(data(&read(chunks, 100).await.0), ["a\nb"]);
    }

    #[tokio::test]
    async fn carriage_returns_alone_end_lines_too() {
        let chunks = vec![
            b"data: a\r\r".to_vec(),
            b"data: b\r".to_vec(),
            b"\r: end\r".to_vec(),
        ];
        assert_eq!(data(&read(chunks, 100).await.0), ["a", "b"]);
    }

    #[tokio::test]
    async fn an_id_and_a_retry_count_even_in_an_event_without_data() {
        // A polling server's priming event, then it closes the stream.
        let (events, cursor) = read(vec![b"id: 42\nretry: 250\n\n".to_vec()], 100).await;
        assert!(data(&events).iter().all(String::is_empty));
        assert_eq!(cursor.last_id.as_deref(), Some("42"));
        assert_eq!(cursor.retry, Some(Duration::from_millis(250)));
        // An event cut short by the end of the body does not count.
        let (_, cursor) = read(vec![b"id: 1\ndata: a\n\nid: 2\ndata: b\n".to_vec()], 100).await;
        assert_eq!(cursor.last_id.as_deref(), Some("1"));
    }

    #[tokio::test]
    async fn bytes_that_are_not_text_spoil_their_event_only() {
        let chunks = vec![b"data: \xff\xfe\n\n".to_vec(), b"data: fine\n\n".to_vec()];
        assert_eq!(
            data(&read(chunks, 100).await.0),
            ["\u{fffd}\u{fffd}", "fine"]
        );
    }

    #[tokio::test]
    async fn a_byte_order_mark_opening_the_body_is_skipped_even_when_split() {
        let body = "\u{feff}data: a\n\n".as_bytes();
        for at in 0..=4 {
            let chunks = vec![body[..at].to_vec(), body[at..].to_vec()];
            assert_eq!(data(&read(chunks, 100).await.0), ["a"], "split at {at}");
        }
        // Only one is skipped: a second one starts a line (a field of no known name).
        let twice = "\u{feff}\u{feff}data: a\n\ndata: b\n\n".as_bytes().to_vec();
        assert_eq!(data(&read(vec![twice], 100).await.0), ["b"]);
    }

    #[tokio::test]
    async fn an_empty_id_clears_the_one_before() {
        let fields = Arc::new(Mutex::new(Cursor {
            last_id: Some(String::new()),
            retry: None,
        }));
        let mut reader = EventReader {
            events: Box::pin(futures_util::stream::empty()),
            fields,
        };
        let mut cursor = Cursor {
            last_id: Some("7".into()),
            retry: None,
        };
        assert!(reader.next(&mut cursor).await.is_none());
        assert_eq!(cursor.last_id, None);
    }

    #[tokio::test]
    async fn an_event_over_the_limit_is_reported_in_its_place_and_the_next_one_read() {
        let big = format!("data: {}\n", "y".repeat(500));
        let body = format!("data: before\n\n{}{big}{big}\ndata: after\n\n", "id: 7\n").into_bytes();
        for size in [1, 7, 64, 4096] {
            let chunks = body.chunks(size).map(<[u8]>::to_vec).collect();
            let (events, cursor) = read(chunks, 600).await;
            let [
                Ok(before),
                Err(Fault::TooLarge { bytes, limit: 600 }),
                Ok(after),
            ] = events.as_slice()
            else {
                panic!("chunks of {size}: {events:?}");
            };
            assert_eq!((before.1.as_str(), after.1.as_str()), ("before", "after"));
            // Told as soon as it passed the limit, with what had come by then.
            assert!(
                (601..=600 + size).contains(bytes),
                "chunks of {size}: {bytes}"
            );
            assert_eq!(cursor.last_id, None, "the dropped event's id is not kept");
        }
    }
}

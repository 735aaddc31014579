//! Properties of reading an event stream through the engine's own reader (`whole_lines`
//! then `eventsource-stream`): the events and the cursor are those the stream says, however
//! the body is cut into chunks.

use std::convert::Infallible;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;

use super::{Cursor, EventReader};
use crate::fuzz::{Chunking, block_on, chunking, fuzz, soup};

/// An event as the reader gives it, or why the stream broke.
#[derive(Debug, Clone, PartialEq)]
enum Got {
    Event {
        event: String,
        data: String,
        id: String,
        retry: Option<Duration>,
    },
    Broken(String),
}

/// Everything read from a body that arrives in `chunks`, and the cursor at the end.
fn read(chunks: Vec<Vec<u8>>) -> (Vec<Got>, Option<String>, Option<Duration>) {
    let limit = chunks.iter().map(Vec::len).sum::<usize>() + 1;
    let body = futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Infallible>));
    let response = http::Response::new(reqwest::Body::wrap_stream(body));
    let mut reader = EventReader::new(response.into(), usize::MAX);
    let mut cursor = Cursor::default();
    let mut got = Vec::new();
    block_on(async {
        while let Some(next) = reader.next(&mut cursor).await {
            got.push(match next {
                Ok(e) => Got::Event {
                    event: e.event,
                    data: e.data,
                    id: e.id,
                    retry: e.retry,
                },
                Err(err) => Got::Broken(err.to_string()),
            });
            assert!(got.len() <= limit, "more events than bytes");
        }
    });
    (got, cursor.last_id, cursor.retry)
}

/// The same events and cursor whether the body comes whole or in these chunks.
fn check_chunking(body: &[u8], chunking: &Chunking) -> TestCaseResult {
    prop_assert_eq!(read(chunking.split(body)), read(vec![body.to_vec()]));
    Ok(())
}

/// One line of an event stream.
#[derive(Debug, Clone)]
enum Field {
    Id(String),
    Event(String),
    Data(String),
    Retry(String),
    Comment(String),
    /// A field the standard does not define, ignored.
    Unknown(&'static str, String),
}

/// How a line ends.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    Lf,
    Cr,
    CrLf,
}

/// A line with its ending; `spaced` writes `name: value` rather than `name:value`.
type Written = (Field, bool, End);

/// A stream: events (fields then a blank line), then maybe the fields of an unfinished one.
#[derive(Debug, Clone)]
struct Script {
    events: Vec<(Vec<Written>, End)>,
    unfinished: Vec<Written>,
}

/// Text on one line: anything but a line break, NUL and the BOM included.
fn text() -> impl Strategy<Value = String> {
    "[^\r\n]{0,12}"
}

fn field() -> impl Strategy<Value = Field> {
    prop_oneof![
        2 => "[^\r\n]{0,12}".prop_map(Field::Id),
        1 => prop_oneof![text(), Just("message".to_owned())].prop_map(Field::Event),
        4 => text().prop_map(Field::Data),
        // No `+`: a delay written `+5` is taken (see below).
        1 => prop_oneof!["[0-9]{1,7}", "[0-9a-z -]{0,4}"].prop_map(Field::Retry),
        1 => text().prop_map(Field::Comment),
        1 => (proptest::sample::select(&["ids", "Data", "retry2", "event "][..]), text())
            .prop_map(|(name, value)| Field::Unknown(name, value)),
    ]
}

fn end() -> impl Strategy<Value = End> {
    prop_oneof![3 => Just(End::Lf), 1 => Just(End::Cr), 2 => Just(End::CrLf)]
}

fn script() -> impl Strategy<Value = Script> {
    let line = || (field(), any::<bool>(), end());
    let event = (proptest::collection::vec(line(), 0..5), end());
    (
        proptest::collection::vec(event, 0..6),
        proptest::collection::vec(line(), 0..3),
    )
        .prop_map(|(events, unfinished)| Script { events, unfinished })
}

impl Script {
    fn encode(&self) -> Vec<u8> {
        let mut out = String::new();
        let mut previous = None;
        let mut line = |out: &mut String, text: String, mut end: End| {
            // A blank line written `\n` right after a `\r` would read as one `\r\n` break.
            if text.is_empty() && end == End::Lf && previous == Some(End::Cr) {
                end = End::CrLf;
            }
            out.push_str(&text);
            out.push_str(match end {
                End::Lf => "\n",
                End::Cr => "\r",
                End::CrLf => "\r\n",
            });
            previous = Some(end);
        };
        let written = |(field, spaced, _): &Written| {
            let (name, value) = match field {
                Field::Id(v) => ("id", v),
                Field::Event(v) => ("event", v),
                Field::Data(v) => ("data", v),
                Field::Retry(v) => ("retry", v),
                Field::Comment(v) => ("", v),
                Field::Unknown(name, v) => (*name, v),
            };
            // One space after the colon is not part of the value: a value that starts
            // with a space needs it.
            let space = if *spaced || value.starts_with(' ') {
                " "
            } else {
                ""
            };
            format!("{name}:{space}{value}")
        };
        for (fields, blank) in &self.events {
            for w in fields {
                line(&mut out, written(w), w.2);
            }
            line(&mut out, String::new(), *blank);
        }
        for w in &self.unfinished {
            line(&mut out, written(w), w.2);
        }
        out.into_bytes()
    }

    /// The events, last id and retry that the standard's event-stream interpretation gives.
    fn expected(&self) -> (Vec<Got>, Option<String>, Option<Duration>) {
        let mut got = Vec::new();
        let mut last_id = String::new();
        let mut cursor_retry = None;
        for (fields, _) in &self.events {
            let (mut event, mut data, mut retry) = (String::new(), String::new(), None);
            for (field, _, _) in fields {
                match field {
                    Field::Id(v) if !v.contains('\0') => last_id.clone_from(v),
                    Field::Event(v) => event.clone_from(v),
                    Field::Data(v) => {
                        data.push_str(v);
                        data.push('\n');
                    }
                    Field::Retry(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                        retry = v.parse().ok().map(Duration::from_millis);
                    }
                    _ => {}
                }
            }
            // A delay counts at once, an id once its event is complete, data or not.
            if retry.is_some() {
                cursor_retry = retry;
            }
            if data.pop().is_some() {
                got.push(Got::Event {
                    event: if event.is_empty() {
                        "message".into()
                    } else {
                        event
                    },
                    data,
                    id: last_id.clone(),
                    retry,
                });
            }
        }
        for (field, _, _) in &self.unfinished {
            if let Field::Retry(v) = field
                && !v.is_empty()
                && v.bytes().all(|b| b.is_ascii_digit())
            {
                cursor_retry = v.parse().ok().map(Duration::from_millis);
            }
        }
        let last_id = (!last_id.is_empty()).then_some(last_id);
        (got, last_id, cursor_retry)
    }
}

/// Bytes rich in what an event stream is made of, invalid UTF-8 and the BOM included.
fn body() -> impl Strategy<Value = Vec<u8>> {
    soup(&[
        b"data: ",
        b"data:",
        b"id: ",
        b"event: ",
        b"retry: ",
        b"1500",
        b": comment",
        b":",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b"x",
        b"\xc3\xa9",
        b"\xef\xbb\xbf",
        b"\xff",
        b"\0",
    ])
}

proptest! {
    #[test]
    fn events_and_cursor_are_what_the_stream_says_however_it_is_cut(
        script in script(),
        chunking in chunking(),
    ) {
        let body = script.encode();
        prop_assert_eq!(read(chunking.split(&body)), script.expected());
    }

    #[test]
    fn any_body_reads_the_same_however_it_is_cut(body in body(), chunking in chunking()) {
        check_chunking(&body, &chunking)?;
    }
}

/// The events of a one-chunk body, and the cursor after them.
fn read_whole(body: &str) -> (Vec<Got>, Option<String>, Option<Duration>) {
    read(vec![body.as_bytes().to_vec()])
}

fn message(data: &str, id: &str) -> Got {
    Got::Event {
        event: "message".into(),
        data: data.into(),
        id: id.into(),
        retry: None,
    }
}

#[test]
fn a_body_that_starts_with_a_byte_order_mark_is_read() {
    let (events, _, _) = read_whole("\u{feff}data: a\n\n");
    assert_eq!(events, [message("a", "")]);
}

#[test]
fn an_id_in_an_event_without_data_is_the_last_id() {
    // What a server that primes the client for resumption may send first.
    let (_, last_id, _) = read_whole("id: 1\n\n");
    assert_eq!(last_id.as_deref(), Some("1"));
}

#[test]
fn a_retry_in_an_event_without_data_is_kept() {
    // What a server sends before it closes the connection, so the client waits that long.
    let (_, _, retry) = read_whole("data: a\n\nretry: 3000\n\n");
    assert_eq!(retry, Some(Duration::from_secs(3)));
}

#[test]
fn an_empty_id_clears_the_last_id() {
    let (_, last_id, _) = read_whole("id: 1\ndata: a\n\nid\ndata: b\n\n");
    assert_eq!(last_id, None);
}

#[test]
fn a_stream_that_ends_with_a_carriage_return_delivers_its_last_event() {
    let (events, _, _) = read_whole("data: a\r\r");
    assert_eq!(events, [message("a", "")]);
}

#[test]
fn a_delay_must_be_digits_only() {
    let (_, _, retry) = read_whole("retry: +5\ndata: a\n\n");
    assert_eq!(retry, None);
}

#[test]
#[ignore = "long: see crate::fuzz"]
fn fuzz_server_sent_events() {
    fuzz(
        "server-sent events",
        (body(), chunking()),
        |(body, chunking)| check_chunking(&body, &chunking),
    );
}

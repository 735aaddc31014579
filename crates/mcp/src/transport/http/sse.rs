//! The `text/event-stream` format, parsed as the HTML standard describes, incrementally:
//! every byte is looked at once and a `data` byte is copied once, straight into its event,
//! so that an event of any size costs time and memory in proportion to its size.

use std::collections::VecDeque;
use std::time::Duration;

/// One dispatched event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Event {
    /// The event type; empty for the default, `message`.
    pub event: String,
    /// The data lines, joined with `\n`.
    pub data: String,
}

/// Where a stream stopped, so that it can be resumed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The last event id, as of the last dispatched event.
    pub last_id: Option<String>,
    /// The reconnection delay the server asked for.
    pub retry: Option<Duration>,
}

/// What the bytes of the current line are, once its field name is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// Reading the field name, up to `:` or the end of the line.
    Name,
    /// A comment (the line starts with `:`), skipped.
    Comment,
    /// The value of a `data` field, appended to the event's data as it arrives.
    Data { at_start: bool },
    /// The value of another field, kept until the end of the line.
    Value { at_start: bool },
}

#[derive(Debug)]
pub struct Parser {
    line: Line,
    /// The field name while in `Name`; then the value of a field other than `data`.
    field: Vec<u8>,
    /// The name of the field whose value is in `field`.
    name: Vec<u8>,
    data: Vec<u8>,
    event: Vec<u8>,
    /// The id buffer: the last event id once the next event is dispatched.
    id: Option<Vec<u8>>,
    /// The previous line ended with `\r`: a `\n` right after it belongs to that ending.
    after_cr: bool,
    /// How many bytes of a byte order mark may still be skipped at the stream's start.
    bom_left: usize,
    ready: VecDeque<Event>,
}

impl Default for Parser {
    fn default() -> Self {
        Self {
            line: Line::Name,
            field: Vec::new(),
            name: Vec::new(),
            data: Vec::new(),
            event: Vec::new(),
            id: None,
            after_cr: false,
            bom_left: BOM.len(),
            ready: VecDeque::new(),
        }
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Parser {
    /// The next complete event, if one is ready.
    pub fn next_event(&mut self) -> Option<Event> {
        self.ready.pop_front()
    }

    /// Takes in the next bytes of the stream; the id and retry fields go to `cursor`.
    pub fn feed(&mut self, mut bytes: &[u8], cursor: &mut Cursor) {
        // A mark split over chunks is skipped too; a partial one is not UTF-8 anyway.
        while self.bom_left > 0 && !bytes.is_empty() {
            if bytes[0] == BOM[BOM.len() - self.bom_left] {
                bytes = &bytes[1..];
                self.bom_left -= 1;
            } else {
                self.bom_left = 0;
            }
        }
        while !bytes.is_empty() {
            if std::mem::take(&mut self.after_cr) && bytes[0] == b'\n' {
                bytes = &bytes[1..];
                continue;
            }
            let end = memchr::memchr2(b'\n', b'\r', bytes);
            let (content, rest) = match end {
                Some(at) => (&bytes[..at], Some(&bytes[at..])),
                None => (bytes, None),
            };
            let used = self.take_content(content);
            if used < content.len() {
                // The field name ended at a `:`: the rest of the line is its value.
                bytes = &bytes[used..];
                continue;
            }
            match rest {
                Some(rest) => {
                    self.after_cr = rest[0] == b'\r';
                    self.end_line(cursor);
                    bytes = &rest[1..];
                }
                None => return,
            }
        }
    }

    /// Takes bytes of the current line (no line ending among them); returns how many it
    /// used, fewer than given only when the field name ends.
    fn take_content(&mut self, content: &[u8]) -> usize {
        match self.line {
            Line::Name => match memchr::memchr(b':', content) {
                Some(colon) => {
                    self.field.extend_from_slice(&content[..colon]);
                    self.line = if self.field.is_empty() {
                        Line::Comment
                    } else if self.field == b"data" {
                        Line::Data { at_start: true }
                    } else {
                        self.name = std::mem::take(&mut self.field);
                        Line::Value { at_start: true }
                    };
                    colon + 1
                }
                None => {
                    self.field.extend_from_slice(content);
                    content.len()
                }
            },
            Line::Comment => content.len(),
            Line::Data { at_start } => {
                let value = skip_space(content, at_start);
                self.data.extend_from_slice(value);
                self.line = Line::Data {
                    at_start: at_start && content.is_empty(),
                };
                content.len()
            }
            Line::Value { at_start } => {
                self.field.extend_from_slice(skip_space(content, at_start));
                self.line = Line::Value {
                    at_start: at_start && content.is_empty(),
                };
                content.len()
            }
        }
    }

    fn end_line(&mut self, cursor: &mut Cursor) {
        let line = std::mem::replace(&mut self.line, Line::Name);
        match line {
            Line::Name if self.field.is_empty() => self.dispatch(cursor),
            // A line without a colon is a field with an empty value.
            Line::Name => {
                self.name = std::mem::take(&mut self.field);
                self.set_field(cursor);
            }
            Line::Comment => self.field.clear(),
            Line::Data { .. } => {
                self.field.clear();
                self.data.push(b'\n');
            }
            Line::Value { .. } => self.set_field(cursor),
        }
    }

    /// Applies a field other than `data`: its name is in `name`, its value in `field`.
    fn set_field(&mut self, cursor: &mut Cursor) {
        let value = std::mem::take(&mut self.field);
        match self.name.as_slice() {
            b"data" => {
                self.data.extend_from_slice(&value);
                self.data.push(b'\n');
            }
            b"event" => self.event = value,
            b"id" if !value.contains(&0) => self.id = Some(value),
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                if let Some(ms) = std::str::from_utf8(&value)
                    .ok()
                    .and_then(|v| v.parse().ok())
                {
                    cursor.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {}
        }
        self.name.clear();
    }

    /// A blank line: the event so far is complete.
    fn dispatch(&mut self, cursor: &mut Cursor) {
        if let Some(id) = &self.id {
            cursor.last_id = (!id.is_empty()).then(|| text(id.clone()));
        }
        let event = std::mem::take(&mut self.event);
        let mut data = std::mem::take(&mut self.data);
        if data.is_empty() {
            return;
        }
        data.pop();
        self.ready.push_back(Event {
            event: text(event),
            data: text(data),
        });
    }
}

fn skip_space(value: &[u8], at_start: bool) -> &[u8] {
    match value {
        [b' ', rest @ ..] if at_start => rest,
        _ => value,
    }
}

/// Bytes as text: without a copy when they are UTF-8, as they must be.
fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> (Vec<Event>, Cursor) {
        let mut parser = Parser::default();
        let mut cursor = Cursor::default();
        let mut out = Vec::new();
        for chunk in chunks {
            parser.feed(chunk, &mut cursor);
            out.extend(std::iter::from_fn(|| parser.next_event()));
        }
        (out, cursor)
    }

    fn message(data: &str) -> Event {
        Event {
            event: String::new(),
            data: data.into(),
        }
    }

    #[test]
    fn every_split_of_a_stream_yields_the_same_events() {
        let stream: &[u8] = b"\xEF\xBB\xBF: comment\r\nid: 7\r\nretry: 1500\r\nevent: endpoint\r\ndata: /messages\r\n\r\ndata:a\ndata\ndata:  b\r\r\nid\nevent:x\n\ndata: last\n";
        let expected = vec![
            Event {
                event: "endpoint".into(),
                data: "/messages".into(),
            },
            message("a\n\n b"),
        ];
        let whole = events(&[stream]);
        assert_eq!(whole.0, expected);
        // The empty `id` line reset the last id; `retry` took effect at once.
        assert_eq!(
            whole.1,
            Cursor {
                last_id: None,
                retry: Some(Duration::from_millis(1500))
            }
        );
        for at in 0..stream.len() {
            let split = events(&[&stream[..at], &stream[at..]]);
            assert_eq!(split, whole, "split at {at}");
        }
        let bytewise: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(events(&bytewise), whole);
    }

    #[test]
    fn the_last_id_is_the_one_of_the_last_dispatched_event() {
        let (out, cursor) = events(&[b"id: 1\ndata: x\n\nid: 2\ndata: y\n"]);
        assert_eq!(out, vec![message("x")]);
        assert_eq!(cursor.last_id.as_deref(), Some("1"));
        let (_, cursor) = events(&[b"id: 1\ndata: x\n\nid: 2\n\n"]);
        assert_eq!(
            cursor.last_id.as_deref(),
            Some("2"),
            "an event without data"
        );
    }

    #[test]
    fn odd_fields_are_ignored_and_bad_retries_too() {
        let (out, cursor) = events(&[b"retry: 1x\nfoo: bar\ndata\n\n"]);
        assert_eq!(out, vec![message("")]);
        assert_eq!(cursor.retry, None);
    }

    #[test]
    fn a_large_event_is_read_in_linear_time() {
        let payload = "x".repeat(8 * 1024 * 1024);
        let stream = format!("data: {payload}\n\n");
        let chunks: Vec<&[u8]> = stream.as_bytes().chunks(16 * 1024).collect();
        let (out, _) = events(&chunks);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].data.len(), payload.len());
    }
}

//! A `text/event-stream` decoder, as the HTML standard defines it: lines end with CR, LF
//! or CRLF; `event:` names an event, `data:` lines add to it, an empty line dispatches it;
//! `:` lines are comments; `id:` and `retry:` are read and ignored (a model's answer is
//! never resumed). A byte order mark may open the stream.
//!
//! Bytes go in as they arrive, split anywhere; whole events come out. One event larger
//! than the limit is an error rather than memory spent without end.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SseEvent {
    /// The `event:` name; empty when the event had none (the standard's "message").
    pub event: String,
    pub data: String,
}

impl SseEvent {
    /// The event's data, read as JSON, and its type: the data's `type`, else the event's
    /// name (the APIs that name their events say it in both).
    pub fn typed(&self) -> Result<(serde_json::Value, String), crate::error::Error> {
        let data: serde_json::Value = serde_json::from_str(&self.data).map_err(|e| {
            crate::error::Error::MalformedStream(format!("an event that is not JSON ({e})"))
        })?;
        let kind = data
            .get("type")
            .and_then(serde_json::Value::as_str)
            .unwrap_or(&self.event)
            .to_owned();
        Ok((data, kind))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an event of more than {limit} bytes")]
pub(crate) struct TooLarge {
    pub limit: usize,
}

const BOM: &[u8] = "\u{feff}".as_bytes();

pub(crate) struct SseDecoder {
    limit: usize,
    /// The current line, as far as it came.
    line: Vec<u8>,
    /// The last byte was a CR: an LF right after it ends no further line.
    after_cr: bool,
    /// The first bytes of the stream, while they may still be a byte order mark.
    lead: Option<Vec<u8>>,
    event: String,
    data: String,
    /// Whether the current event has had a `data` line (an event without one is dropped).
    has_data: bool,
}

impl SseDecoder {
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            line: Vec::new(),
            after_cr: false,
            lead: Some(Vec::new()),
            event: String::new(),
            data: String::new(),
            has_data: false,
        }
    }

    /// Takes the next bytes; returns the events they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, TooLarge> {
        let mut out = Vec::new();
        let Some(mut lead) = self.lead.take() else {
            self.scan(bytes, &mut out)?;
            return Ok(out);
        };
        lead.extend_from_slice(bytes);
        if lead.len() < BOM.len() && BOM.starts_with(&lead) {
            self.lead = Some(lead);
            return Ok(out);
        }
        let body = lead.strip_prefix(BOM).unwrap_or(&lead);
        self.scan(body, &mut out)?;
        Ok(out)
    }

    /// The stream ended: an event that its sender did not close with an empty line is
    /// still handed on (some servers omit the last one).
    pub fn finish(&mut self) -> Result<Option<SseEvent>, TooLarge> {
        let mut out = Vec::new();
        if let Some(lead) = self.lead.take() {
            self.scan(&lead, &mut out)?;
        }
        if !self.line.is_empty() {
            self.end_line(&mut out)?;
        }
        self.end_line(&mut out)?;
        Ok(out.pop())
    }

    fn scan(&mut self, mut bytes: &[u8], out: &mut Vec<SseEvent>) -> Result<(), TooLarge> {
        while !bytes.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if bytes[0] == b'\n' {
                    bytes = &bytes[1..];
                    continue;
                }
            }
            match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(at) => {
                    self.take(&bytes[..at])?;
                    self.after_cr = bytes[at] == b'\r';
                    bytes = &bytes[at + 1..];
                    self.end_line(out)?;
                }
                None => {
                    self.take(bytes)?;
                    break;
                }
            }
        }
        Ok(())
    }

    fn take(&mut self, bytes: &[u8]) -> Result<(), TooLarge> {
        if self.data.len() + self.line.len() + bytes.len() > self.limit {
            return Err(TooLarge { limit: self.limit });
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) -> Result<(), TooLarge> {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            if std::mem::take(&mut self.has_data) {
                let mut data = std::mem::take(&mut self.data);
                data.pop(); // the LF after the last data line
                out.push(SseEvent {
                    event: std::mem::take(&mut self.event),
                    data,
                });
            } else {
                self.event.clear();
            }
            return Ok(());
        }
        let line = String::from_utf8_lossy(&line);
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "" => {} // a comment
            "event" => value.clone_into(&mut self.event),
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
                self.has_data = true;
            }
            _ => {} // `id`, `retry`, and fields the standard ignores
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(bytes: &[u8]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new(1 << 20);
        let mut out = decoder.push(bytes).unwrap();
        out.extend(decoder.finish().unwrap());
        out
    }

    fn event(name: &str, data: &str) -> SseEvent {
        SseEvent {
            event: name.into(),
            data: data.into(),
        }
    }

    const STREAM: &[u8] = b"\xEF\xBB\xBFevent: message_start\ndata: {\"a\":1}\n\n: keep-alive\n\nevent: ping\r\ndata: {\"type\": \"ping\"}\r\n\r\ndata: one\rdata:two\r\rid: 7\nretry: 10\n\ndata: [DONE]\n\n";

    #[test]
    fn reads_events_as_the_standard_says() {
        assert_eq!(
            events(STREAM),
            vec![
                event("message_start", r#"{"a":1}"#),
                event("ping", r#"{"type": "ping"}"#),
                event("", "one\ntwo"),
                event("", "[DONE]"),
            ]
        );
    }

    #[test]
    fn the_same_events_however_the_bytes_are_split() {
        let whole = events(STREAM);
        for size in 1..STREAM.len() {
            let mut decoder = SseDecoder::new(1 << 20);
            let mut out = Vec::new();
            for chunk in STREAM.chunks(size) {
                out.extend(decoder.push(chunk).unwrap());
            }
            out.extend(decoder.finish().unwrap());
            assert_eq!(out, whole, "chunks of {size}");
        }
    }

    #[test]
    fn an_unfinished_last_event_is_kept_and_an_event_without_data_dropped() {
        assert_eq!(events(b"data: last"), vec![event("", "last")]);
        assert_eq!(events(b"event: lonely\n\n"), vec![]);
        assert_eq!(events(b"\xEF\xBB"), vec![]);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(events(b"data: a\xFFb\n\n"), vec![event("", "a\u{FFFD}b")]);
    }

    #[test]
    fn an_event_over_the_limit_is_refused() {
        let mut decoder = SseDecoder::new(16);
        assert!(decoder.push(b"data: 0123456789").is_ok());
        assert_eq!(
            decoder.push(b"\ndata: 0123456789\n"),
            Err(TooLarge { limit: 16 })
        );
    }
}

//! Newline-delimited framing with a bound on line length.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

pub enum Line {
    /// A line ended by a newline, without it (and without a trailing `\r`).
    Complete,
    /// The last bytes of the input, ended by its end instead of a newline: what a writer
    /// that stopped mid-line left (a trailing `\r` dropped).
    Last,
    /// A line just passed the bound: its first bytes, so that whoever waits for it can
    /// be told at once. The rest of it is skipped by the next calls.
    Overflowing {
        head: Vec<u8>,
    },
    /// The end of a line longer than the bound: its size, and its first and last few
    /// bytes, which may say what it was (its id).
    TooLong {
        bytes: usize,
        head: Vec<u8>,
        tail: Vec<u8>,
    },
    Eof,
}

/// How much of the start and of the end of an over-long line is kept.
const HEAD_BYTES: usize = 4096;
const TAIL_BYTES: usize = 256;

/// Where a reader is in an over-long line, between calls, and how much of its start it
/// keeps.
pub struct Skipping {
    discarded: Option<Discarded>,
    head_bytes: usize,
}

impl Default for Skipping {
    fn default() -> Self {
        Self::keeping(HEAD_BYTES)
    }
}

impl Skipping {
    /// Keeping the first `head_bytes` of an over-long line: a log line is read for its
    /// start, a message only for whose it is.
    pub fn keeping(head_bytes: usize) -> Self {
        Self {
            discarded: None,
            head_bytes,
        }
    }
}

/// The ends of a line being discarded.
struct Discarded {
    bytes: usize,
    head: Vec<u8>,
    head_bytes: usize,
    tail: Vec<u8>,
}

impl Discarded {
    fn new(head_bytes: usize) -> Self {
        Self {
            bytes: 0,
            head: Vec::new(),
            head_bytes,
            tail: Vec::new(),
        }
    }

    fn add(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len();
        if self.head.len() < self.head_bytes {
            let take = (self.head_bytes - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
        }
        let keep = TAIL_BYTES.min(bytes.len());
        self.tail.extend_from_slice(&bytes[bytes.len() - keep..]);
        let excess = self.tail.len().saturating_sub(TAIL_BYTES);
        self.tail.drain(..excess);
    }

    fn line(self) -> Line {
        Line::TooLong {
            bytes: self.bytes,
            head: self.head,
            tail: self.tail,
        }
    }
}

/// Reads the next line into `buf` (cleared first), never holding more than `max` bytes.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
    skipping: &mut Skipping,
) -> std::io::Result<Line> {
    buf.clear();
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            if let Some(discarded) = skipping.discarded.take() {
                return Ok(discarded.line());
            }
            if buf.is_empty() {
                return Ok(Line::Eof);
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Last);
        }
        let (chunk, found) = match memchr::memchr(b'\n', available) {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        let used = chunk.len() + usize::from(found);
        let mut overflowing = None;
        if let Some(discarded) = &mut skipping.discarded {
            discarded.add(chunk);
        } else if buf.len() + chunk.len() > max {
            let mut first = Discarded::new(skipping.head_bytes);
            first.add(buf);
            first.add(chunk);
            buf.clear();
            overflowing = Some(first.head.clone());
            skipping.discarded = Some(first);
        } else {
            buf.extend_from_slice(chunk);
        }
        reader.consume(used);
        if found {
            if let Some(discarded) = skipping.discarded.take() {
                return Ok(discarded.line());
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Complete);
        }
        if let Some(head) = overflowing {
            return Ok(Line::Overflowing { head });
        }
    }
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn an_overlong_line_keeps_its_first_and_last_bytes_only() {
        let line = format!("{{\"id\":7,{}\"end\":1}}\nok\n", "x".repeat(100_000));
        let got = lines(line.as_bytes(), 1000, 333).await;
        assert_eq!(got.len(), 3);
        // Told as soon as the line passes the bound, with what came so far.
        assert!(
            got[0].starts_with("<over: {\"id\":7,xxx"),
            "{}",
            &got[0][..20]
        );
        let kept = &got[1];
        assert!(
            kept.starts_with("<100016 bytes: {\"id\":7,xxx"),
            "{}",
            &kept[..40]
        );
        assert!(kept.ends_with("xxx\"end\":1}>"));
        assert_eq!(
            kept.len(),
            "<100016 bytes: ..>".len() + super::HEAD_BYTES + super::TAIL_BYTES
        );
        assert_eq!(got[2], "ok");
    }

    use super::*;
    use tokio::io::BufReader;

    async fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<String> {
        let mut reader = BufReader::with_capacity(capacity, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        let mut skipping = Skipping::default();
        loop {
            match read_line(&mut reader, &mut buf, max, &mut skipping)
                .await
                .unwrap()
            {
                Line::Complete => out.push(String::from_utf8_lossy(&buf).into_owned()),
                Line::Last => out.push(format!("{}<end>", String::from_utf8_lossy(&buf))),
                Line::Overflowing { head } => {
                    out.push(format!("<over: {}>", String::from_utf8_lossy(&head)))
                }
                Line::TooLong { bytes, head, tail } => out.push(format!(
                    "<{bytes} bytes: {}..{}>",
                    String::from_utf8_lossy(&head),
                    String::from_utf8_lossy(&tail)
                )),
                Line::Eof => return out,
            }
        }
    }

    #[tokio::test]
    async fn splits_on_newlines_across_buffer_boundaries() {
        let got = lines(b"{\"a\":1}\n{\"b\":2}\r\n\nlast\r", 100, 3).await;
        assert_eq!(got, ["{\"a\":1}", "{\"b\":2}", "", "last<end>"]);
    }

    #[tokio::test]
    async fn an_overlong_line_is_reported_and_the_next_one_read() {
        let got = lines(b"0123456789\nok\n0123456789", 5, 4).await;
        assert_eq!(
            got,
            [
                "<over: 01234567>",
                "<10 bytes: 0123456789..0123456789>",
                "ok",
                "<over: 012345>",
                "<10 bytes: 0123456789..0123456789>"
            ]
        );
    }
}

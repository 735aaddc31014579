//! Newline-delimited framing with a bound on line length.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

pub enum Line {
    /// A complete line, without its newline (and without a trailing `\r`).
    Complete,
    /// A line longer than the bound: its bytes were discarded up to the next newline,
    /// except its first and last few, which may say what it was (its id).
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

/// The ends of a line being discarded.
#[derive(Default)]
struct Discarded {
    bytes: usize,
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl Discarded {
    fn add(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len();
        if self.head.len() < HEAD_BYTES {
            let take = (HEAD_BYTES - self.head.len()).min(bytes.len());
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
) -> std::io::Result<Line> {
    buf.clear();
    let mut discarded: Option<Discarded> = None;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            // A last line without a newline still counts.
            return Ok(match (discarded, buf.is_empty()) {
                (Some(discarded), _) => discarded.line(),
                (None, true) => Line::Eof,
                (None, false) => {
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                    Line::Complete
                }
            });
        }
        let (chunk, found) = match memchr::memchr(b'\n', available) {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        let used = chunk.len() + usize::from(found);
        if let Some(discarded) = &mut discarded {
            discarded.add(chunk);
        } else if buf.len() + chunk.len() > max {
            let mut first = Discarded::default();
            first.add(buf);
            first.add(chunk);
            buf.clear();
            discarded = Some(first);
        } else {
            buf.extend_from_slice(chunk);
        }
        reader.consume(used);
        if found {
            if let Some(discarded) = discarded {
                return Ok(discarded.line());
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Complete);
        }
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn an_overlong_line_keeps_its_first_and_last_bytes_only() {
        let line = format!("{{\"id\":7,{}\"end\":1}}\nok\n", "x".repeat(100_000));
        let got = lines(line.as_bytes(), 1000, 333).await;
        assert_eq!(got.len(), 2);
        let kept = &got[0];
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
        assert_eq!(got[1], "ok");
    }

    use super::*;
    use tokio::io::BufReader;

    async fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<String> {
        let mut reader = BufReader::with_capacity(capacity, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, &mut buf, max).await.unwrap() {
                Line::Complete => out.push(String::from_utf8_lossy(&buf).into_owned()),
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
        assert_eq!(got, ["{\"a\":1}", "{\"b\":2}", "", "last"]);
    }

    #[tokio::test]
    async fn an_overlong_line_is_reported_and_the_next_one_read() {
        let got = lines(b"0123456789\nok\n0123456789", 5, 4).await;
        assert_eq!(
            got,
            [
                "<10 bytes: 0123456789..0123456789>",
                "ok",
                "<10 bytes: 0123456789..0123456789>"
            ]
        );
    }
}
